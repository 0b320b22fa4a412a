"""run(main()) cancels the tasks main left behind and runs the loop until their cleanup is done."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def leftover():
    try:
        await asyncio.sleep(100)
        say_at("leftover finished?!")
    except asyncio.CancelledError:
        say_at("leftover cancelled, cleaning up")
        await asyncio.sleep(0.5)
        say_at("leftover cleanup done")
        raise


async def main():
    asyncio.create_task(leftover())
    await asyncio.sleep(1)
    say_at("main returns 1")
    return 1


def scenario():
    # asyncio.run(main()) on the virtual clock: a Runner with our loop.
    with asyncio.Runner(loop_factory=new_virtual_loop) as runner:
        result = runner.run(main())
    print(f"run() returned {result}")


scenario()
