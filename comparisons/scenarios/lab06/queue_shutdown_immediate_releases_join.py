"""shutdown(immediate=True) (new in 3.13) discards the items left and counts each as a task
done. A getter that a put woke finds its item gone when it resumes, and raises
QueueShutDown; join() returns once the items taken before are done too."""
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


async def worker(name, queue, hold):
    try:
        item = await queue.get()
    except asyncio.QueueShutDown:
        say(f"{name} QueueShutDown")
        return
    say(f"{name} got {item}")
    await hold
    queue.task_done()
    say(f"{name} task_done()")


async def joiner(queue):
    await queue.join()
    say("join() returns")


def scenario():
    loop = new_virtual_loop()
    queue = asyncio.Queue()
    hold = loop.create_future()
    for name in ("a", "b", "c"):
        loop.create_task(worker(name, queue, hold))
    run_turns(loop, 1)
    queue.put_nowait(1)
    queue.put_nowait(2)
    loop.create_task(joiner(queue))
    run_turns(loop, 1)
    queue.put_nowait(3)  # wakes c
    queue.put_nowait(4)
    queue.shutdown(immediate=True)
    say(f"shutdown(immediate=True): qsize() -> {queue.qsize()}; {queue}")
    run_turns(loop, 1)
    hold.set_result(None)
    run_turns(loop, 2)
    try:
        queue.task_done()
    except ValueError as error:
        say(f"ValueError: {error}")
    loop.close()


scenario()
