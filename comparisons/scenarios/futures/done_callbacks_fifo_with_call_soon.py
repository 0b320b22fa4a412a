"""Done callbacks join the ready queue when the future completes, FIFO with call_soon: X, A, B, Y, C."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()
    fut = loop.create_future()

    def say(name):
        return lambda *args: print(f"{name} ran")

    loop.call_soon(say("X"))
    fut.add_done_callback(say("A"))  # pending: kept by the future
    fut.add_done_callback(say("B"))
    print("set_result(): queues A and B after X")
    fut.set_result(None)
    loop.call_soon(say("Y"))
    fut.add_done_callback(say("C"))  # done: queued at once, after Y
    loop.stop()
    loop.run_forever()
    print("one turn ran")
    loop.close()


main()
