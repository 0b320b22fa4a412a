"""call_later(0) is due at once but runs after the already-ready callbacks, same turn."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()

    def a():
        print(f"t={loop.time():.3f} A ran (call_soon)")

    def b():
        print(f"t={loop.time():.3f} B ran (call_later 0)")

    loop.call_later(0, b)  # scheduled first ...
    loop.call_soon(a)      # ... but A is already in the ready queue
    print("turn 1")
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()
    print("turn done")
    loop.close()


main()
