"""A task whose coroutine ends with a CancelledError gives that error's message to the first who
asks for it, and CancelledError() without one after; a cancelled future, or a task that cancels
itself and returns, keeps its message for everyone."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


def shown(error):
    return f"CancelledError({error.args[0]!r})" if error.args else "CancelledError()"


async def victim():
    await asyncio.sleep(10)


async def cancels_itself_and_returns():
    asyncio.current_task().cancel("from inside")
    return 5


async def awaits(name, task):
    try:
        await task
    except asyncio.CancelledError as error:
        say_at(f"{name} got {shown(error)}")


async def main():
    loop = asyncio.get_running_loop()
    task = asyncio.create_task(victim())
    await asyncio.sleep(1)
    task.cancel("stop now")
    first = asyncio.create_task(awaits("first waiter", task))
    second = asyncio.create_task(awaits("second waiter", task))
    await asyncio.gather(first, second)
    for how in ("result()", "exception()"):
        try:
            task.result() if how == "result()" else task.exception()
        except asyncio.CancelledError as error:
            say_at(f"task.{how} -> {shown(error)}")
    future = loop.create_future()
    future.cancel("kept")
    for _ in range(2):
        try:
            future.result()
        except asyncio.CancelledError as error:
            say_at(f"future.result() -> {shown(error)}")
    itself = asyncio.create_task(cancels_itself_and_returns())
    for _ in range(2):
        try:
            await itself
        except asyncio.CancelledError as error:
            say_at(f"await itself -> {shown(error)}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
