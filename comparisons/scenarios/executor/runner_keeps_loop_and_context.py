"""asyncio.Runner keeps one loop and one Context across run() calls: a task
the first call left pending goes on during the second, what the first main
task set the second one sees (a token from one call resets in the next),
and close() ends as asyncio.run() does: it cancels what is left. A closed
Runner refuses run() and get_loop()."""
import asyncio
import contextvars

request_id = contextvars.ContextVar("request_id", default="none")
first_token = []


async def ticker():
    try:
        for n in range(100):
            print(f"ticker: tick {n}")
            await asyncio.sleep(0)
    except asyncio.CancelledError:
        print("ticker: cancelled")
        raise


async def first():
    asyncio.get_running_loop().create_task(ticker())
    first_token.append(request_id.set("r-1"))
    print(f"first: request_id={request_id.get()}")


async def second():
    print(f"second: request_id={request_id.get()}")
    await asyncio.sleep(0)
    request_id.reset(first_token[0])
    print(f"second: after reset request_id={request_id.get()}")
    return 2


runner = asyncio.Runner()
with runner:
    runner.run(first())
    print("between the calls")
    print(f"second returned {runner.run(second())}")
    print(f"outside: request_id={request_id.get()}")
print("closed")
refused = second()
try:
    runner.run(refused)
except RuntimeError as error:
    print(f"run: RuntimeError: {error}")
refused.close()  # never run: no "never awaited" warning
try:
    runner.get_loop()
except RuntimeError as error:
    print(f"get_loop: RuntimeError: {error}")
