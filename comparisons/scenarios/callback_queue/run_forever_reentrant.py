"""run_forever() from inside a callback raises; the loop itself keeps running."""
import asyncio


def main():
    loop = asyncio.new_event_loop()

    def a():
        print("A calls run_forever()")
        try:
            loop.run_forever()
        except RuntimeError as exc:
            print(f"A: {type(exc).__name__}: {exc}")

    def b():
        # Not printing is_running() here: 3.13.0 wrongly reports False after
        # the failed nested call (gh-130145).
        print("B ran, calls stop()")
        loop.stop()

    loop.call_soon(a)
    loop.call_soon(b)
    loop.run_forever()  # until b() calls stop()
    print("run_forever returned")
    loop.close()


main()
