"""stop() from a callback ends the loop after the current turn; later callbacks stay queued."""
import asyncio


def main():
    loop = asyncio.new_event_loop()

    def a():
        print("A ran, calls stop() and schedules C")
        loop.stop()
        loop.call_soon(c)

    def b():
        print("B ran")

    def c():
        print("C ran")

    loop.call_soon(a)
    loop.call_soon(b)
    print("first run_forever")
    loop.run_forever()  # runs until a callback calls stop()
    print("first run_forever returned")

    loop.stop()
    print("second run_forever, after stop()")
    loop.run_forever()
    print("second run_forever returned")
    loop.close()


main()
