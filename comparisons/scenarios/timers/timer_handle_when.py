"""TimerHandle.when() is the absolute deadline in loop time."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()

    def f():
        print(f"t={loop.time():.3f} f ran")

    def g():
        print(f"t={loop.time():.3f} g ran")

    print(f"t={loop.time():.3f}")
    h = loop.call_at(2.5, f)
    print(f"call_at(2.5, f).when() = {h.when():.3f}")
    print(f"call_later(1.5, g).when() = {loop.call_later(1.5, g).when():.3f}")
    loop.call_at(3.0, loop.stop)
    loop.run_forever()
    print(f"t={loop.time():.3f} run_forever returned")
    loop.close()


main()
