"""A signal's handler runs as a normal callback two turns after the
delivery (the self-pipe's reader queues it), once per delivery; asyncio's
errors for numbers that are not signals and for signals nobody may catch."""
import asyncio
import signal


def attempt(label, action):
    try:
        action()
        print(f"{label}: no error")
    except (ValueError, RuntimeError) as exc:
        print(f"{label}: {type(exc).__name__}: {exc}")


def main():
    loop = asyncio.new_event_loop()
    turn = [1]
    loop.add_signal_handler(signal.SIGUSR1, lambda: print(f"turn {turn[0]}: SIGUSR1 handler"))

    def deliver():
        print(f"turn {turn[0]}: raising SIGUSR1 twice")
        signal.raise_signal(signal.SIGUSR1)
        signal.raise_signal(signal.SIGUSR1)

    loop.call_soon(deliver)
    while turn[0] <= 4:
        loop.stop()  # one turn
        loop.run_forever()
        turn[0] += 1

    attempt("signal 0", lambda: loop.add_signal_handler(0, print))
    attempt("signal 65", lambda: loop.add_signal_handler(65, print))
    attempt("SIGKILL", lambda: loop.add_signal_handler(signal.SIGKILL, print))
    attempt("SIGSTOP", lambda: loop.add_signal_handler(signal.SIGSTOP, print))
    print(f"remove SIGUSR1: {loop.remove_signal_handler(signal.SIGUSR1)}")
    print(f"remove SIGUSR1 again: {loop.remove_signal_handler(signal.SIGUSR1)}")
    loop.close()
    attempt("after close()", lambda: loop.add_signal_handler(signal.SIGUSR1, print))
    attempt("signal 0 after close()", lambda: loop.add_signal_handler(0, print))


main()
