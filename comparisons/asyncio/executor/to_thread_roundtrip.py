"""to_thread_roundtrip: a coroutine awaits asyncio.to_thread(), then the next.

One op = one round trip as executor_roundtrip's, plus what to_thread() adds:
a coroutine, a copy of the context and the call run in it. The same
workload as the C++ benchmark of the same name (bench/executor/).
"""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402


def increment(n):
    return n + 1


async def roundtrips(loop, ops):
    to_thread = asyncio.to_thread
    total = 0
    for i in range(ops):
        total += await to_thread(increment, i)
    await loop.shutdown_default_executor()
    return total


def run_batch(loop, ops):
    loop.run_until_complete(roundtrips(loop, ops))


if __name__ == "__main__":
    sys.exit(gbench.main("to_thread_roundtrip", run_batch, ops=10_000, quick_ops=500))
