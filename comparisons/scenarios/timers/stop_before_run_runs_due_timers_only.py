"""stop() then run_forever(): one pass with timeout 0 runs the due timers only."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()

    def ran(name):
        print(f"t={loop.time():.3f} {name} ran")

    loop.call_later(0, ran, "A")    # due now
    loop.call_later(1.0, ran, "B")  # not due: the pass must not wait for it
    loop.stop()
    loop.run_forever()
    print(f"t={loop.time():.3f} after the stopped pass")

    loop.call_at(2.0, loop.stop)
    loop.run_forever()
    print(f"t={loop.time():.3f} after the second run")
    loop.close()


main()
