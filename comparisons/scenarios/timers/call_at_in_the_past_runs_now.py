"""call_at() with a past deadline runs in the next turn, after the callbacks already ready."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()
    loop.stop()  # one empty turn: the virtual time must not move
    loop.run_forever()
    print(f"t={loop.time():.3f} after an empty turn")

    def x():
        print(f"t={loop.time():.3f} X ran (call_at -5.0)")

    def y():
        print(f"t={loop.time():.3f} Y ran (call_soon)")

    loop.call_at(-5.0, x)  # scheduled first, deadline long past
    loop.call_soon(y)
    print("turn 2")
    loop.stop()
    loop.run_forever()
    print("turn done")
    loop.close()


main()
