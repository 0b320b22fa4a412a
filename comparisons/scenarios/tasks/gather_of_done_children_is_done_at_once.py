"""CPython 3.12+: gather() of children that are all done is done when it returns; awaiting it costs
no turn."""
import asyncio
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


async def main(loop):
    first = loop.create_future()
    second = loop.create_future()
    first.set_result(1)
    second.set_result(2)
    gathering = asyncio.gather(first, second)
    say(f"gather() returned; done() -> {gathering.done()}")
    say(f"awaited: {await gathering}")


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(main(loop))
    run_turns(loop, 1)
    say(f"main done: {task.done()}")
    loop.close()


scenario()
