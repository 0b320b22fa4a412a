"""A toy task: a coroutine driven by loop callbacks and nothing else, one send(None) per step."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


class ToySleep:
    """await ToySleep(d): suspend, handing d to the driver."""

    def __init__(self, delay):
        self.delay = delay

    def __await__(self):
        yield self.delay  # what coro.send(None) returns to step()


def step(loop, coro):
    """The whole task: run the coroutine to its next await, then book the next step."""
    try:
        delay = coro.send(None)
    except StopIteration:
        return
    loop.call_later(delay, step, loop, coro)


def start(loop, coro):
    loop.call_soon(step, loop, coro)


def say_at(loop, what):
    print(f"t={loop.time():.3f} {what}")


async def worker(loop, name, nap):
    for round_ in range(1, 3):
        say_at(loop, f"{name} round {round_}")
        await ToySleep(nap)
    say_at(loop, f"{name} done")


def scenario():
    loop = new_virtual_loop()
    start(loop, worker(loop, "a", 0.3))
    start(loop, worker(loop, "b", 0.2))
    loop.call_later(1, loop.stop)
    loop.run_forever()
    loop.close()


scenario()
