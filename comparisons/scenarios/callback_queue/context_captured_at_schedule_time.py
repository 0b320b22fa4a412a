"""call_soon copies the current context when it is called, not when the callback runs."""
import asyncio
import contextvars

request_id = contextvars.ContextVar("request_id")


def show():
    print(f"show: request_id = {request_id.get()}")


def main():
    loop = asyncio.new_event_loop()
    request_id.set("req-1")
    loop.call_soon(show)
    request_id.set("req-2")  # too late: show's context was copied above

    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()
    print(f"outside: request_id = {request_id.get()}")
    loop.close()


main()
