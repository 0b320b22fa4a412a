"""Awaiting a future that is already done does not suspend the task: no turn."""
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


async def main(done, pending):
    say("main starts")
    value = await done
    say(f"awaited the done future: {value}")
    value = await pending
    say(f"awaited the pending future: {value}")


def complete(pending):
    pending.set_result(2)
    say("pending future set")


def scenario():
    loop = new_virtual_loop()
    done = loop.create_future()
    done.set_result(1)
    pending = loop.create_future()
    task = loop.create_task(main(done, pending))
    run_turns(loop, 1)
    loop.call_soon(complete, pending)
    run_turns(loop, 2)
    say(f"main done: {task.done()}")
    loop.close()


scenario()
