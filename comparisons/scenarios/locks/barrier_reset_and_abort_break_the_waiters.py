"""Barrier: reset() sends the waiters BrokenBarrierError and fills again once they left;
abort() breaks it for the waiters and for every later wait()."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

turn = 0


def say(what):
    print(f"turn {turn}: {what}")


def short_repr(barrier):
    """repr() without the module and the address: <Barrier [filling, waiters:0/3]>."""
    return "<Barrier [" + repr(barrier).split(" [", 1)[1]


def run_turns(loop, count):
    global turn
    for _ in range(count):
        turn += 1
        loop.stop()  # stop() before run_forever(): exactly one turn
        loop.run_forever()


async def party(name, meeting):
    try:
        index = await meeting.wait()
        say(f"{name} passes with index {index}")
    except asyncio.BrokenBarrierError as error:
        say(f"{name}: BrokenBarrierError: {error}")


async def act(what, meeting):
    await getattr(meeting, what)()
    say(f"{what}() done, {short_repr(meeting)}")


def scenario():
    loop = new_virtual_loop()
    meeting = asyncio.Barrier(3)
    for name in "ab":
        loop.create_task(party(name, meeting))
    run_turns(loop, 1)
    loop.create_task(act("reset", meeting))
    run_turns(loop, 3)
    for name in "cd":
        loop.create_task(party(name, meeting))
    run_turns(loop, 1)
    say(f"n_waiting {meeting.n_waiting}")
    loop.create_task(act("abort", meeting))
    run_turns(loop, 3)
    loop.create_task(party("e", meeting))
    run_turns(loop, 1)
    say(f"broken {meeting.broken}, {short_repr(meeting)}")
    try:
        asyncio.Barrier(0)
    except ValueError as error:
        say(f"Barrier(0): ValueError: {error}")
    loop.close()


scenario()
