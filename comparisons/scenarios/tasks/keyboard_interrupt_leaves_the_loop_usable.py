"""KeyboardInterrupt leaves run_until_complete(); the loop's stop callback, queued anyway, does not
stop the next run, and SystemExit out of run() still lets the leftover tasks finish their cleanup."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def interrupted():
    raise KeyboardInterrupt


async def work():
    await asyncio.sleep(0)
    await asyncio.sleep(0.5)
    return 5


async def sibling():
    try:
        await asyncio.sleep(10)
    finally:
        for _ in range(3):
            await asyncio.sleep(0.25)
        say_at("sibling cleanup finished")


async def main():
    asyncio.create_task(sibling())
    await asyncio.sleep(1)
    raise SystemExit(3)


def scenario():
    loop = new_virtual_loop()
    try:
        loop.run_until_complete(interrupted())
    except KeyboardInterrupt:
        print("KeyboardInterrupt escaped")
    print(f"second run -> {loop.run_until_complete(work())}")
    loop.close()
    try:
        with asyncio.Runner(loop_factory=new_virtual_loop) as runner:
            runner.run(main())
    except SystemExit as error:
        print(f"SystemExit {error.code}")


scenario()
