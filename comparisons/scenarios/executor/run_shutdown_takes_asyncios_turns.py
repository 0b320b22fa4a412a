"""After main() returns, run() takes as many turns as asyncio.run() to cancel
the leftovers and close: a callback chain started by a leftover's cleanup
counts them."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def tick(loop, count):
    print(f"tick {count}")
    loop.call_soon(tick, loop, count + 1)


async def leftover():
    try:
        await asyncio.sleep(100)
    except asyncio.CancelledError:
        print("leftover cancelled")
        loop = asyncio.get_running_loop()
        loop.call_soon(tick, loop, 1)
        raise


async def main():
    asyncio.create_task(leftover())
    await asyncio.sleep(0)
    print("main returns")


def scenario():
    # asyncio.run(main()) on the virtual clock: a Runner with our loop.
    with asyncio.Runner(loop_factory=new_virtual_loop) as runner:
        runner.run(main())
    print("run() returned")


scenario()
