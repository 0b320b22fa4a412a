"""A handle cancelled before its turn is skipped; its neighbours still run."""
import asyncio


def say(name):
    print(f"{name} ran")


def main():
    loop = asyncio.new_event_loop()
    loop.call_soon(say, "A")
    handle = loop.call_soon(say, "B")
    loop.call_soon(say, "C")

    handle.cancel()
    print(f"cancelled() = {handle.cancelled()}")
    print(f"repr = {handle!r}")  # no callback, so no place: asyncio outside debug mode

    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()
    print("turn done")
    loop.close()


main()
