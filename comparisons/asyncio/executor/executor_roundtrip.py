"""executor_roundtrip: a coroutine hands a call to the default executor with
run_in_executor() and awaits its result, then hands over the next.

One op = one round trip: the call goes to a worker thread, its result comes
back to the loop (call_soon_threadsafe), the coroutine resumes. The same
workload as the C++ benchmark of the same name (bench/executor/). Each batch
runs on a fresh loop, so its default executor (and its threads) is made in
the batch and shut down at its end (shutdown_default_executor, as
asyncio.run() does).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402


def increment(n):
    return n + 1


async def roundtrips(loop, ops):
    run_in_executor = loop.run_in_executor
    total = 0
    for i in range(ops):
        total += await run_in_executor(None, increment, i)
    await loop.shutdown_default_executor()
    return total


def run_batch(loop, ops):
    loop.run_until_complete(roundtrips(loop, ops))


if __name__ == "__main__":
    sys.exit(gbench.main("executor_roundtrip", run_batch, ops=10_000, quick_ops=500))
