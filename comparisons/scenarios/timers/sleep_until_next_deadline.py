"""With nothing ready the loop sleeps straight to the next deadline, hop after hop."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()
    hops = []

    def hop():
        hops.append(loop.time())
        print(f"t={loop.time():.3f} hop {len(hops)}")
        if len(hops) < 4:
            loop.call_later(0.25, hop)
        else:
            loop.stop()

    print(f"t={loop.time():.3f} start")
    loop.call_later(0.25, hop)
    loop.run_forever()
    print(f"t={loop.time():.3f} run_forever returned after {len(hops)} hops")
    loop.close()


main()
