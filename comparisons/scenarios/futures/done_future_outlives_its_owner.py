"""A done future lives on after its owner lets go, until its queued done callbacks have run."""
import gc
import sys
import weakref
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


class Value:
    def __init__(self, text):
        self.text = text


def main():
    loop = new_virtual_loop()
    fut = loop.create_future()
    fut.add_done_callback(lambda f: print(f"done callback sees {f.result().text!r}"))
    value = Value("still here")
    alive = weakref.ref(value)
    fut.set_result(value)
    del fut, value
    gc.collect()
    print(f"owner let go; value alive: {alive() is not None}")
    loop.stop()
    loop.run_forever()
    gc.collect()
    print(f"after the turn; value alive: {alive() is not None}")
    loop.close()


main()
