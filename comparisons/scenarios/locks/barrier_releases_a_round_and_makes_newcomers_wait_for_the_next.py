"""Barrier(3): the third arrival releases the round without waiting; each gets its index in
arrival order; newcomers while the round drains wait for the next round."""
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
    say(f"{name} arrives")
    index = await meeting.wait()
    say(f"{name} passes with index {index}")


def scenario():
    loop = new_virtual_loop()
    meeting = asyncio.Barrier(3)
    say(short_repr(meeting))
    for name in "ab":
        loop.create_task(party(name, meeting))
    run_turns(loop, 1)
    say(f"n_waiting {meeting.n_waiting}, {short_repr(meeting)}")
    for name in "cde":
        loop.create_task(party(name, meeting))
    run_turns(loop, 1)
    say(f"n_waiting {meeting.n_waiting}, {short_repr(meeting)}")
    run_turns(loop, 3)
    say(f"n_waiting {meeting.n_waiting}, {short_repr(meeting)}")
    loop.create_task(party("f", meeting))
    run_turns(loop, 2)
    say(f"n_waiting {meeting.n_waiting}, {short_repr(meeting)}")
    loop.close()


scenario()
