"""run_until_complete() stops in the turn after completion: callbacks queued before its stop run."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()
    fut = loop.create_future()

    def on_done(f):
        print("stop turn: done callback (added before run_until_complete)")
        loop.call_soon(lambda: print("next run: queued by the done callback"))

    def complete():
        print("completion turn: set_result(7)")
        fut.set_result(7)
        loop.call_soon(lambda: print("stop turn: queued after set_result"))

    fut.add_done_callback(on_done)
    loop.call_soon(complete)
    print(f"run_until_complete -> {loop.run_until_complete(fut)}")
    loop.stop()
    loop.run_forever()
    print("one more turn ran")
    loop.close()


main()
