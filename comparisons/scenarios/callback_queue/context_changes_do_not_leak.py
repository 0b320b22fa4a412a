"""A callback's ContextVar.set() stays in its own context copy: no other callback or caller sees it."""
import asyncio
import contextvars

var = contextvars.ContextVar("var")


def setter():
    var.set("inside")
    print(f"setter: var = {var.get()}")


def reader():
    print(f"reader: var = {var.get()}")


def main():
    loop = asyncio.new_event_loop()
    var.set("outer")
    loop.call_soon(setter)
    loop.call_soon(reader)  # scheduled before setter ran: sees "outer"

    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()
    print(f"after the turn: var = {var.get()}")
    loop.close()


main()
