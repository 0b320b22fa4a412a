"""An error raised while run() cancels the leftovers (here a leftover that
raises SystemExit when cancelled) comes out of run() in place of main's
result, as out of asyncio.Runner's `with` block; the loop is closed."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


async def leftover():
    try:
        await asyncio.sleep(100)
    except asyncio.CancelledError:
        print("leftover cancelled, exits")
        raise SystemExit(3)


async def main():
    asyncio.create_task(leftover())
    await asyncio.sleep(0)
    print("main returns 1")
    return 1


def run(coro):
    # asyncio.run(main()) on the virtual clock.
    return asyncio.run(coro, loop_factory=new_virtual_loop)


async def run_inside_a_loop():
    try:
        run(main())
    except RuntimeError as error:
        print(f"RuntimeError: {error}")


def scenario():
    try:
        print(f"run() returned {run(main())}")
    except SystemExit as exit:
        print(f"run() raised SystemExit {exit.code}")
    run(run_inside_a_loop())


scenario()
