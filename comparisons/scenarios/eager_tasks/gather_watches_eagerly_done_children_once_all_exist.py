"""gather() under the eager factory watches a child that finished in its eager step only once
every child exists: when a later child's step raises SystemExit out of gather(), no gather
future was made, and the first child's error is its own, never retrieved."""
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


reports = []


def handler(loop, context):
    # Collected, and printed sorted: when each report comes depends on when
    # the garbage collector (or, in C++, the unwinding) frees the task.
    reports.append(f"{context['message']} ({type(context['exception']).__name__})")


async def fails():
    say("first child raises ValueError")
    raise ValueError("boom")


async def leaves():
    say("second child raises SystemExit")
    raise SystemExit(3)


async def main():
    try:
        asyncio.gather(fails(), leaves())
    except SystemExit:
        say("SystemExit out of gather()")
    gc.collect()
    say("main goes on")


def scenario():
    loop = new_virtual_loop()
    loop.set_exception_handler(handler)
    loop.set_task_factory(asyncio.eager_task_factory)
    loop.create_task(main())  # the loop is not running yet: lazy
    run_turns(loop, 1)
    gc.collect()
    for report in sorted(reports):
        say(f"reported: {report}")
    loop.close()


scenario()
