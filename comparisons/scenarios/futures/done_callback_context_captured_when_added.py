"""Each done callback runs in a copy of the context current when it was added, not at completion."""
import contextvars
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

request_id = contextvars.ContextVar("request_id", default="none")


def main():
    loop = new_virtual_loop()
    fut = loop.create_future()

    def first(f):
        print(f"first callback: request_id = {request_id.get()}")

    def second(f):
        print(f"second callback: request_id = {request_id.get()}")
        request_id.set("changed inside")  # stays in this callback's context

    request_id.set("req-1")
    fut.add_done_callback(first)
    request_id.set("req-2")
    fut.add_done_callback(second)
    request_id.set("at completion")
    fut.set_result(None)
    request_id.set("req-3")
    fut.add_done_callback(first)  # done already: queued now, with req-3
    request_id.set("at the turn")
    loop.stop()
    loop.run_forever()
    print(f"outside: request_id = {request_id.get()}")
    loop.close()


main()
