"""A failed gather() that nobody awaits is reported, when its future goes, as
CPython names its class: "_GatheringFuture exception was never retrieved".
Its failed child was retrieved by the gather, and is not reported."""
import asyncio
import gc
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


def handler(loop, context):
    exc = context["exception"]
    say(f"handler: {context['message']}: {type(exc).__name__}: {exc}")


async def fails():
    raise ValueError("boom")


def scenario():
    loop = new_virtual_loop()
    loop.set_exception_handler(handler)
    asyncio.set_event_loop(loop)  # gather() outside a running loop takes this one
    everything = asyncio.gather(fails())
    run_turns(loop, 2)
    say("dropping the gather")
    del everything
    gc.collect()
    say("dropped")
    loop.close()


scenario()
