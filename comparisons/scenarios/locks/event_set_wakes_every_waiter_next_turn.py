"""set() wakes every waiter, each resuming one turn later in the order they began to wait; wait()
on a set event costs no turn; clear() makes wait() wait again."""
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


async def waiter(name, event):
    say(f"{name} waits")
    await event.wait()
    say(f"{name} woke; is_set() -> {event.is_set()}")


def scenario():
    loop = new_virtual_loop()
    event = asyncio.Event()
    for name in ("a", "b", "c"):
        loop.create_task(waiter(name, event))
    run_turns(loop, 1)
    event.set()
    say("set()")
    run_turns(loop, 1)
    loop.create_task(waiter("d", event))
    run_turns(loop, 1)
    event.clear()
    loop.create_task(waiter("e", event))
    run_turns(loop, 2)
    event.set()
    say("set() again")
    run_turns(loop, 1)
    loop.close()


scenario()
