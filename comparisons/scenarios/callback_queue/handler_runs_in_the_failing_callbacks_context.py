"""A custom exception handler runs in the Context of the callback that failed
(asyncio 3.12+; 3.11 ran it in the caller's): it sees the failing request's
id, including a value the callback set before it raised."""
import asyncio
import contextvars

request_id = contextvars.ContextVar("request_id", default="none")


def handler(loop, context):
    print(f"handler sees request_id = {request_id.get()}")


def main():
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(handler)

    def first():
        raise ValueError("boom")

    def second():
        request_id.set("req-2, changed inside")
        raise ValueError("boom")

    request_id.set("req-1")
    loop.call_soon(first)
    request_id.set("req-2")
    loop.call_soon(second)
    request_id.set("main")
    loop.stop()  # one turn
    loop.run_forever()
    loop.call_exception_handler({"message": "reported by main"})
    print(f"main sees request_id = {request_id.get()}")
    loop.close()


main()
