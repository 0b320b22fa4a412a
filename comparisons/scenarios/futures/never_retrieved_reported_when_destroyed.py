"""A future's exception that nobody retrieved is reported when the future is destroyed.

In CPython that is when its last reference goes (gc.collect() makes sure); a
done callback still queued holds the future, so the report waits for it.
"""
import gc
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def handler(loop, context):
    exc = context["exception"]
    print(f"handler: {context['message']}: {type(exc).__name__}: {exc}")


def main():
    loop = new_virtual_loop()
    loop.set_exception_handler(handler)

    fut = loop.create_future()
    fut.set_exception(ValueError("nobody looked"))
    print("dropping the future")
    del fut
    gc.collect()
    print("dropped")

    fut = loop.create_future()
    fut.add_done_callback(lambda f: print("done callback ran (does not look)"))
    fut.set_exception(ValueError("looked at too late"))
    print("dropping a future whose callback is queued")
    del fut
    gc.collect()
    print("dropped; nothing reported yet")
    loop.stop()
    loop.run_forever()
    gc.collect()
    print("after the turn")
    loop.close()


main()
