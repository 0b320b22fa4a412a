"""Completing a future does not run its done callbacks: they run in the next turn."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

turn = 0


def main():
    global turn
    loop = new_virtual_loop()
    fut = loop.create_future()

    def on_done(f):
        print(f"turn {turn}: done callback sees result {f.result()}")

    def complete():
        fut.set_result(42)
        print(f"turn {turn}: set_result(42); done() -> {fut.done()}")

    def same_turn():
        print(f"turn {turn}: next callback of the same turn")

    fut.add_done_callback(on_done)
    loop.call_soon(complete)
    loop.call_soon(same_turn)
    for _ in range(3):
        turn += 1
        loop.stop()  # stop() before run_forever(): run exactly one turn
        loop.run_forever()
        print(f"after turn {turn}")
    loop.close()


main()
