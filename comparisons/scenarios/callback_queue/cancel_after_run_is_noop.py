"""Cancelling a handle that already ran raises nothing and runs nothing again."""
import asyncio


def main():
    loop = asyncio.new_event_loop()
    runs = []

    def b():
        runs.append("B")
        print("B ran")

    handle = loop.call_soon(b)
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()

    handle.cancel()  # too late to matter, but not an error
    print("cancel() after the run: no error")
    print(f"cancelled() = {handle.cancelled()}")  # asyncio sets the flag anyway

    loop.stop()
    loop.run_forever()
    print(f"B ran {len(runs)} time(s)")
    loop.close()


main()
