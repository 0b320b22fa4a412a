"""stop() before run_forever() makes it run exactly one turn and return."""
import asyncio


def main():
    loop = asyncio.new_event_loop()

    def a():
        print("A ran, schedules its child")
        loop.call_soon(child)

    def child():
        print("child ran")  # must not appear: it was queued during the only turn

    loop.call_soon(a)
    loop.stop()
    loop.run_forever()
    print("run_forever returned")
    print(f"is_running() = {loop.is_running()}")
    loop.close()


main()
