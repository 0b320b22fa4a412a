"""A task waits only for a future (or a bare yield). A coroutine that gives it anything else,
a "bad yield", gets RuntimeError('Task got bad yield: ...') thrown in where it suspended, one
turn later. It may catch it and go on; uncaught, it ends the task; a cancel() in between wins.
(What follows the colon is the repr of what was yielded, here; looplab names the awaiter's
type: only the words before it are compared.)"""
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


class Foreign:
    """Yields something that is not a future: C++'s std::suspend_always."""

    def __await__(self):
        yield 42


def words(error):
    return str(error).split(":")[0]


async def catches():
    try:
        await Foreign()
        say("catches: resumed without an error")
    except RuntimeError as error:
        say(f"catches: caught RuntimeError('{words(error)}: ...')")
    await asyncio.sleep(0)
    say("catches: went on")
    return "done"


async def lets_it_out():
    await Foreign()


async def main(loop):
    first = loop.create_task(catches())
    second = loop.create_task(lets_it_out())
    third = loop.create_task(lets_it_out())
    await asyncio.sleep(0)  # all three have given their bad yield
    say(f"third.cancel('stop') -> {third.cancel('stop')}")
    say(f"first: {await first}")
    try:
        await second
    except RuntimeError as error:
        say(f"second failed: RuntimeError('{words(error)}: ...')")
    try:
        await third
    except asyncio.CancelledError as error:
        say(f"third cancelled: CancelledError('{error}')")


def scenario():
    loop = new_virtual_loop()
    task = loop.create_task(main(loop))
    run_turns(loop, 6)
    say(f"main done: {task.done()}")
    loop.close()


scenario()
