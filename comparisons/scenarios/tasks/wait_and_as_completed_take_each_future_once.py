"""wait() and as_completed() take a future given twice once (asyncio makes a set of them); an
as_completed() next() still waiting goes on after its iterator is gone, and a consumer woken and
then cancelled passes its result on to the next one."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def answer(delay, value):
    await asyncio.sleep(delay)
    return value


async def consumer(name, next_result):
    try:
        say_at(f"{name} got {await next_result}")
    except asyncio.CancelledError:
        say_at(f"{name} cancelled")
        raise


async def main():
    loop = asyncio.get_running_loop()
    t = asyncio.create_task(answer(1, 1))
    u = asyncio.create_task(answer(2, 2))
    done, pending = await asyncio.wait([t, t, u])
    say_at(f"wait([t, t, u]): {len(done)} done, {len(pending)} pending")
    v = asyncio.create_task(answer(1, 3))
    results = [await f for f in asyncio.as_completed([v, v])]
    say_at(f"as_completed([v, v]) gave {results}")
    w = asyncio.create_task(answer(1, 4))
    next_result = next(iter(asyncio.as_completed([w])))  # the iterator is dropped here
    say_at(f"a next() whose iterator is gone -> {await next_result}")
    f1 = loop.create_future()
    f2 = loop.create_future()
    it = iter(asyncio.as_completed([f1, f2]))
    a = asyncio.create_task(consumer("a", next(it)))
    b = asyncio.create_task(consumer("b", next(it)))
    await asyncio.sleep(0)
    f1.set_result(5)
    loop.call_soon(a.cancel)  # right after a is woken for f1's result
    await asyncio.sleep(0.5)
    say_at(f"b done: {b.done()}")
    f2.set_result(6)
    await asyncio.sleep(0)


def scenario():
    loop = new_virtual_loop()
    loop.run_until_complete(main())
    loop.close()


scenario()
