"""close() refuses a running loop; after close(), scheduling and running raise, close() again is a no-op."""
import asyncio


def attempt(label, action):
    try:
        action()
        print(f"{label}: no error")
    except RuntimeError as exc:
        print(f"{label}: {type(exc).__name__}: {exc}")


def main():
    loop = asyncio.new_event_loop()
    loop.call_soon(attempt, "close() while running", loop.close)
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()
    print(f"is_closed() = {loop.is_closed()}")

    loop.close()
    print(f"is_closed() = {loop.is_closed()}")
    attempt("call_soon", lambda: loop.call_soon(print, "never"))
    attempt("run_forever", loop.run_forever)
    attempt("close() again", loop.close)
    print(f"is_closed() = {loop.is_closed()}")


main()
