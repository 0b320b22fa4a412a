"""Every ContextVar is a variable of its own, whatever the type of its value:
a callback reads each one's value, or its default, never another's."""
import asyncio
import contextvars

user = contextvars.ContextVar("user", default="nobody")
retries = contextvars.ContextVar("retries", default=0)
deadline = contextvars.ContextVar("deadline", default=0)


def show():
    print(f"user = {user.get()}, retries = {retries.get()}, deadline = {deadline.get()}")


def main():
    loop = asyncio.new_event_loop()
    deadline.set(30)
    loop.call_soon(show)
    retries.set(3)
    loop.call_soon(show)
    user.set("alice")
    loop.call_soon(show)
    loop.stop()
    loop.run_forever()
    loop.close()


main()
