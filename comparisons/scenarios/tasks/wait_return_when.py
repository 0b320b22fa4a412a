"""asyncio.wait(): FIRST_COMPLETED returns as soon as one is done,
FIRST_EXCEPTION at the first failure, ALL_COMPLETED when all are; a timeout
returns what is done so far, no error; nothing is cancelled."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


async def job(name, delay, fail=False):
    await asyncio.sleep(delay)
    if fail:
        raise ValueError(name)
    return name


def names(tasks, order):
    return "[" + ", ".join(t.get_name() for t in order if t in tasks) + "]"


async def main(loop):
    def start(specs):
        return [loop.create_task(job(*spec), name=spec[0]) for spec in specs]

    def report(label, done, pending, order):
        print(f"t={loop.time():.3f} {label}: done={names(done, order)} pending={names(pending, order)}")

    order = start([("a", 3), ("b", 1), ("c", 2)])
    done, pending = await asyncio.wait(order, return_when=asyncio.FIRST_COMPLETED)
    report("FIRST_COMPLETED", done, pending, order)
    done, pending = await asyncio.wait(order, timeout=0.5)
    report("timeout 0.5", done, pending, order)
    done, pending = await asyncio.wait(order)
    report("ALL_COMPLETED", done, pending, order)

    order = start([("x", 1), ("y", 2, True), ("z", 3)])
    done, pending = await asyncio.wait(order, return_when=asyncio.FIRST_EXCEPTION)
    report("FIRST_EXCEPTION", done, pending, order)
    print(f"z cancelled: {order[2].cancelled()}")
    await asyncio.wait(order)
    try:
        await asyncio.wait([])
    except ValueError as e:
        print(f"wait([]) -> ValueError: {e}")


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main(loop))
    loop.close()


scenario()
