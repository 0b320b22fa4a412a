"""Signals delivered between two reads of the self-pipe run their handlers
in the order they came, not in the order of their numbers: asyncio's pipe
holds a byte per delivery. A delivery not read yet when its handler is
removed and another added goes to the new handler."""
import asyncio
import signal


def main():
    loop = asyncio.new_event_loop()
    turn = [1]

    def handler(name):
        return lambda: print(f"turn {turn[0]}: {name}")

    loop.add_signal_handler(signal.SIGUSR1, handler("SIGUSR1"))
    loop.add_signal_handler(signal.SIGUSR2, handler("SIGUSR2"))
    loop.add_signal_handler(signal.SIGHUP, handler("SIGHUP"))

    def deliver():
        print("turn 1: raising SIGUSR2, SIGHUP, SIGUSR1, SIGUSR2")
        for sig in (signal.SIGUSR2, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2):
            signal.raise_signal(sig)

    def replace():
        print(f"turn {turn[0]}: raising SIGUSR1, then replacing its handler")
        signal.raise_signal(signal.SIGUSR1)
        print(f"removed: {loop.remove_signal_handler(signal.SIGUSR1)}")
        loop.add_signal_handler(signal.SIGUSR1, handler("the new SIGUSR1 handler"))

    def run_turns_until(last):
        while turn[0] <= last:
            loop.stop()  # one turn
            loop.run_forever()
            turn[0] += 1

    loop.call_soon(deliver)
    run_turns_until(4)
    loop.call_soon(replace)
    run_turns_until(8)
    loop.close()


main()
