"""A task that failed and that nobody asked is reported when it goes: 'Task exception was never
retrieved'."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

turn = 0


def say(what):
    print(f"turn {turn}: {what}")


def run_turns(loop, count):
    global turn
    for _ in range(count):
        turn += 1
        loop.stop()  # stop() before run_forever(): exactly one turn
        loop.run_forever()


import gc  # noqa: E402


def handler(loop, context):
    error = context["exception"]
    print(f"handler: {context['message']}: {type(error).__name__}('{error}')")


async def fails():
    say("task raises ValueError('nobody asked')")
    raise ValueError("nobody asked")


async def asked():
    raise ValueError("asked")


def scenario():
    loop = new_virtual_loop()
    loop.set_exception_handler(handler)
    failing = loop.create_task(fails())
    looked_at = loop.create_task(asked())
    run_turns(loop, 1)
    say(f"looked_at.exception() -> {looked_at.exception()!r}")
    print("dropping both tasks")
    del failing, looked_at
    gc.collect()
    print("dropped")
    loop.close()


scenario()
