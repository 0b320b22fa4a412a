"""asyncio.timeout() as cm: cm.when() is the deadline in loop time,
cm.reschedule() moves it (None removes it), cm.expired() says whether it
fired; timeout_at() takes the deadline itself. Rescheduling an expired
timeout is a RuntimeError."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


async def main(loop):
    async with asyncio.timeout(1) as cm:
        print(f"t={loop.time():.3f} when={cm.when():.3f}")
        cm.reschedule(loop.time() + 3)
        await asyncio.sleep(2)
        print(f"t={loop.time():.3f} still running, expired={cm.expired()}")
        cm.reschedule(None)
        await asyncio.sleep(5)
        print(f"t={loop.time():.3f} no deadline: when={cm.when()}")
    print(f"t={loop.time():.3f} block done")
    try:
        async with asyncio.timeout_at(loop.time() + 2) as cm:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                print(f"t={loop.time():.3f} body cancelled, expired={cm.expired()}")
                try:
                    cm.reschedule(loop.time() + 1)
                except RuntimeError as e:
                    print(f"reschedule now -> RuntimeError: {e}")
                raise
    except TimeoutError:
        print(f"t={loop.time():.3f} TimeoutError")
    async with asyncio.timeout(None) as cm:
        print(f"timeout(None): when={cm.when()}")
        cm.reschedule(loop.time())
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:
            print(f"t={loop.time():.3f} cancelled by the rescheduled deadline")
            raise
    print("not reached")


def scenario():
    loop = new_virtual_loop()
    try:
        loop.run_until_complete(main(loop))
    except TimeoutError:
        print(f"t={loop.time():.3f} main ended with TimeoutError")
    loop.close()


scenario()
