"""A coroutine awaiting an asyncio future, driven by hand with send(None) as a
Task drives it, after the source of Future.__await__ as the running CPython
has it. Chapter 5 of the looplab book; run it:

    python3 book/examples/drive_by_hand.py
"""
import asyncio
import inspect
import platform
import textwrap

loop = asyncio.new_event_loop()
fut = loop.create_future()


async def waiter():
    print("  waiter: runs up to its await")
    value = await fut
    print(f"  waiter: resumed, fut.result() is {value}")
    return value * 2


print(f"CPython {platform.python_version()}, asyncio/futures.py (the C Future does the same):")
print(textwrap.indent(textwrap.dedent(inspect.getsource(asyncio.futures._PyFuture.__await__)), "    "))
c = waiter()
print(f"c = waiter() made a {type(c).__name__}; nothing in it has run")
y = c.send(None)
print(f"c.send(None) gave back: a {type(y).__name__}, fut itself: {y is fut}, "
      f"_asyncio_future_blocking: {y._asyncio_future_blocking}")
print("a Task would now call fut.add_done_callback(its wakeup) and return to the loop")
fut.set_result(21)
print("fut.set_result(21); the wakeup would run one turn later and call send(None) again:")
try:
    c.send(None)
except StopIteration as stop:
    print(f"c.send(None) raised StopIteration, value {stop.value}: the coroutine returned")
loop.close()
