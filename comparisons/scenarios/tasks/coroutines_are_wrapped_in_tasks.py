"""run_until_complete(coro) and gather(coro, coro) wrap each coroutine in a
task (ensure_future), so gathered coroutines run concurrently, in argument
order; sleep(delay, result) returns its result after the delay."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


async def child(loop, name, delay):
    print(f"t={loop.time():.3f} {name} starts in {asyncio.current_task().get_name()}")
    value = await asyncio.sleep(delay, f"{name} done")
    print(f"t={loop.time():.3f} {value}")
    return f"{name}:{delay:g}"


async def main(loop):
    print(f"t={loop.time():.3f} main runs in {asyncio.current_task().get_name()}")
    results = await asyncio.gather(child(loop, "slow", 2), child(loop, "fast", 1))
    print(f"t={loop.time():.3f} gather -> {results}")
    return len(results)


def scenario():
    loop = new_virtual_loop()
    count = loop.run_until_complete(main(loop))
    print(f"run_until_complete -> {count}")
    loop.close()


scenario()
