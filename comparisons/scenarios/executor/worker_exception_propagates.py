"""An exception the function raises in the worker reaches the awaiting
coroutine with its own type and message, through run_in_executor() and
to_thread() alike; the future keeps it as its exception()."""
import asyncio


class ParseError(ValueError):
    pass


def parse(text):
    raise ParseError(f"cannot parse {text!r}")


def divide(a, b):
    if b == 0:
        raise RuntimeError("division by zero")
    return a // b


async def main():
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(None, parse, "x1")
    except ValueError as error:
        print(f"run_in_executor: {type(error).__name__}: {error}")
    try:
        await asyncio.to_thread(parse, "y2")
    except ValueError as error:
        print(f"to_thread: {type(error).__name__}: {error}")
    future = loop.run_in_executor(None, divide, 1, 0)
    try:
        await future
    except RuntimeError:
        pass
    error = future.exception()
    print(f"exception(): {type(error).__name__}: {error}")
    print(f"the next call works: {await asyncio.to_thread(divide, 7, 2)}")


asyncio.run(main())
