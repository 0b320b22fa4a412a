"""set_exception_handler(h): h gets the message, the exception and the handle."""
import asyncio


def handler(loop, context):
    message = context["message"]
    if message.startswith("Exception in callback"):
        print("handler: message starts with 'Exception in callback'")
    else:
        print(f"handler: unexpected message {message!r}")
    exc = context["exception"]
    print(f"handler: exception = {type(exc).__name__}: {exc}")
    print(f"handler: has handle = {'handle' in context}")


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
    loop.run_forever()
    print("turn done")
    loop.close()


main()
