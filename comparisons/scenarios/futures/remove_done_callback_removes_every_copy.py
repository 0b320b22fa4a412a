"""remove_done_callback(fn) removes every copy of fn and says how many; after completion, 0."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def on_done(f):
    print("on_done ran")


def other(f):
    print("other ran")


def main():
    loop = new_virtual_loop()
    fut = loop.create_future()
    fut.add_done_callback(on_done)
    fut.add_done_callback(other)
    fut.add_done_callback(on_done)
    print(f"remove_done_callback(on_done) -> {fut.remove_done_callback(on_done)}")
    print(f"remove_done_callback(on_done) -> {fut.remove_done_callback(on_done)}")
    fut.add_done_callback(on_done)
    fut.set_result(None)
    print(f"after set_result: remove_done_callback(on_done) -> {fut.remove_done_callback(on_done)}")
    loop.stop()
    loop.run_forever()
    print("one turn ran")
    loop.close()


main()
