"""A cancelled timer never runs; the timers around it still do."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()

    def ran(name):
        print(f"t={loop.time():.3f} {name} ran")

    loop.call_later(0.1, ran, "A")
    b = loop.call_later(0.2, ran, "B")  # must never print
    loop.call_later(0.3, ran, "C")
    loop.call_later(1.0, loop.stop)
    b.cancel()
    print(f"B cancelled() = {b.cancelled()}")
    print(f"repr(B) = {b!r}")  # no callback, so no place: asyncio outside debug mode
    loop.run_forever()
    print(f"t={loop.time():.3f} run_forever returned")
    print(f"B cancelled() = {b.cancelled()}")
    loop.close()


main()
