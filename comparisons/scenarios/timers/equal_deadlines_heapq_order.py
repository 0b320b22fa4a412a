"""Eight timers with one deadline run in heapq's order (a c g f h e b d), not FIFO."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()
    ran_count = []

    def ran(name):
        print(f"t={loop.time():.3f} {name}")
        ran_count.append(name)
        if len(ran_count) == 8:
            loop.stop()  # no stop timer: a ninth heap entry would change the tie order

    deadline = 5.0  # one float for all eight: the deadlines are exactly equal
    for name in "abcdefgh":
        loop.call_at(deadline, ran, name)
    loop.run_forever()
    print(f"t={loop.time():.3f} done")
    loop.close()


main()
