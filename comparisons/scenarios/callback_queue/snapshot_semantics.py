"""A turn runs a snapshot of the ready queue: what a callback schedules waits for the next turn."""
import asyncio


def main():
    loop = asyncio.new_event_loop()

    def a():
        print("A ran, schedules A2")
        loop.call_soon(a2)

    def a2():
        print("A2 ran")

    def b():
        print("B ran")

    loop.call_soon(a)
    loop.call_soon(b)
    for turn in (1, 2, 3):
        print(f"turn {turn}")
        loop.stop()  # stop() before run_forever(): run exactly one turn
        loop.run_forever()
    print("done")
    loop.close()


main()
