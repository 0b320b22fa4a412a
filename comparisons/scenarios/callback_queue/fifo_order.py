"""Callbacks queued with call_soon run in the order they were queued (FIFO)."""
import asyncio


def say(name):
    print(f"{name} ran")


def main():
    loop = asyncio.new_event_loop()
    loop.call_soon(say, "A")
    loop.call_soon(say, "B")
    loop.call_soon(say, "C")

    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()
    print("turn done")
    loop.close()


main()
