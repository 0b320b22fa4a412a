"""A custom handler that raises is reported by the default handler; the loop keeps going."""
import asyncio


def handler(loop, context):
    print("handler called, raises RuntimeError('handler broke')")
    raise RuntimeError("handler broke")


def main():
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(handler)

    def a():
        print("A raises ValueError('boom')")
        raise ValueError("boom")

    def b():
        print("B ran")

    loop.call_soon(a)
    loop.call_soon(b)
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()  # stderr: "Unhandled error in exception handler"
    print("turn done")
    loop.close()


main()
