"""A producer fills a queue of maxsize 2 for two consumers, who each work one turn on an
item before task_done(); join() returns a turn after the last one. Each line says in
which turn it happened: a put waits only while the queue is full, a get that finds an
item costs no turn, and each wake-up costs one."""
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


async def producer(queue, count):
    for item in range(1, count + 1):
        await queue.put(item)
        say(f"producer put {item}; qsize() -> {queue.qsize()}")


async def consumer(name, queue):
    while True:
        item = await queue.get()
        say(f"{name} got {item}")
        await asyncio.sleep(0)  # works on it for one turn
        queue.task_done()


async def joiner(queue):
    await queue.join()
    say("join() returns")


def scenario():
    loop = new_virtual_loop()
    queue = asyncio.Queue(maxsize=2)
    loop.create_task(producer(queue, 5))
    consumers = [loop.create_task(consumer(name, queue)) for name in ("c1", "c2")]
    loop.create_task(joiner(queue))
    run_turns(loop, 6)
    for task in consumers:
        task.cancel()
    run_turns(loop, 1)
    say(f"consumers cancelled: {all(task.cancelled() for task in consumers)}")
    loop.close()


scenario()
