"""A callback added to a future that is already done is queued, not run: it waits for a turn."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

turn = 0


def main():
    global turn
    loop = new_virtual_loop()
    fut = loop.create_future()
    fut.set_result("ready")
    ran = []

    def early(f):
        ran.append("early")
        print(f"turn {turn}: callback added before the loop ran sees {f.result()!r}")

    def late(f):
        print(f"turn {turn}: callback added during turn 1 sees {f.result()!r}")

    def adder():
        fut.add_done_callback(late)
        print(f"turn {turn}: add_done_callback on a done future")

    def next_one():
        print(f"turn {turn}: next callback of the turn")

    fut.add_done_callback(early)
    print(f"added outside the loop; ran inline: {bool(ran)}")
    loop.call_soon(adder)
    loop.call_soon(next_one)
    for _ in range(3):
        turn += 1
        loop.stop()
        loop.run_forever()
        print(f"after turn {turn}")
    loop.close()


main()
