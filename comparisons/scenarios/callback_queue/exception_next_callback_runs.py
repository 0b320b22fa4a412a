"""An exception in a callback goes to the default handler; the next callback still runs."""
import asyncio


def main():
    loop = asyncio.new_event_loop()

    def a():
        print("A raises ValueError('boom')")
        raise ValueError("boom")

    def b():
        print("B ran")

    loop.call_soon(a)
    loop.call_soon(b)
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()  # the default handler logs "Exception in callback ..." to stderr
    print("turn done")
    loop.close()


main()
