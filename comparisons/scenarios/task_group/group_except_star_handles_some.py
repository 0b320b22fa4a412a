"""except* ValueError takes the ValueErrors out of the group's ExceptionGroup and handles them;
the rest, a smaller ExceptionGroup with the same message, propagates. (C++: split<ValueError>().)"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def failing(error):
    await asyncio.sleep(1)
    raise error


def show(group):
    say_at(f"  {group}")
    for each in group.exceptions:
        say_at(f"    {type(each).__name__}: {each}")


async def handle_value_errors():
    try:
        async with asyncio.TaskGroup() as group:
            group.create_task(failing(ValueError("a")))
            group.create_task(failing(TypeError("b")))
            group.create_task(failing(ValueError("c")))
    except* ValueError as handled:
        say_at("except* ValueError handles:")
        show(handled)


async def main():
    try:
        await handle_value_errors()
    except ExceptionGroup as rest:
        say_at("the rest propagates:")
        show(rest)


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
