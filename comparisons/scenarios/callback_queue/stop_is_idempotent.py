"""Two stop() calls still mean one turn, and run_forever() clears the flag when it returns."""
import asyncio


def main():
    loop = asyncio.new_event_loop()

    def a():
        print("A ran, schedules B")
        loop.call_soon(b)

    def b():
        print("B ran, schedules C")
        loop.call_soon(c)

    def c():
        print("C ran, calls stop()")
        loop.stop()

    loop.call_soon(a)
    loop.stop()
    loop.stop()
    print("run_forever after stop(); stop()")
    loop.run_forever()  # one turn: A only
    print("run_forever returned")

    print("run_forever again, no stop() before it")
    loop.run_forever()  # B's turn, then C's turn, which stops the loop
    print("run_forever returned")
    loop.close()


main()
