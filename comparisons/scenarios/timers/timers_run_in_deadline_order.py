"""Timers run in deadline order, whatever order they were scheduled in."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()

    def ran(name):
        print(f"t={loop.time():.3f} {name} ran")

    def stop():
        print(f"t={loop.time():.3f} stop")
        loop.stop()

    loop.call_later(0.3, ran, "C")
    loop.call_later(0.1, ran, "A")
    loop.call_later(0.2, ran, "B")
    loop.call_later(1.0, stop)
    loop.run_forever()
    print(f"t={loop.time():.3f} run_forever returned")
    loop.close()


main()
