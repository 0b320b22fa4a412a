"""No "exception was never retrieved" for a cancelled future, nor for a retrieved exception.

cancel() of a future that finished with an exception returns False, yet it
clears the flag that would report it (futures.py: __log_traceback = False first).
"""
import gc
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

reports = 0


def handler(loop, context):
    global reports
    reports += 1
    print(f"handler: {context['message']}")


def main():
    loop = new_virtual_loop()
    loop.set_exception_handler(handler)

    fut = loop.create_future()
    print(f"cancelled: cancel() -> {fut.cancel()}")
    del fut
    gc.collect()

    fut = loop.create_future()
    fut.set_exception(ValueError("seen"))
    exc = fut.exception()
    print(f"retrieved: exception() -> {type(exc).__name__}: {exc}")
    del fut, exc
    gc.collect()

    fut = loop.create_future()
    fut.set_exception(ValueError("silenced"))
    print(f"failed, then cancel() -> {fut.cancel()}")
    del fut
    gc.collect()

    fut = loop.create_future()
    fut.set_exception(ValueError("reported"))
    print("failed and dropped")
    del fut
    gc.collect()
    print(f"reports: {reports}")
    loop.close()


main()
