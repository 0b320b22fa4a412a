"""result() and exception() in each state, and resolving a future twice."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def show(label, call):
    try:
        value = call()
    except (Exception, asyncio.CancelledError) as error:
        # As a traceback's last line: the bare type when there is no message.
        text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        print(f"{label} raises {text}")
    else:
        if isinstance(value, BaseException):
            value = f"{type(value).__name__}: {value}"
        print(f"{label} -> {value}")


def main():
    loop = new_virtual_loop()
    pending = loop.create_future()
    show("pending: result()", pending.result)
    show("pending: exception()", pending.exception)
    finished = loop.create_future()
    finished.set_result(42)
    show("finished: result()", finished.result)
    show("finished: exception()", finished.exception)
    failed = loop.create_future()
    failed.set_exception(ValueError("boom"))
    show("failed: result()", failed.result)
    show("failed: exception()", failed.exception)
    cancelled = loop.create_future()
    cancelled.cancel()
    show("cancelled: result()", cancelled.result)
    show("cancelled: exception()", cancelled.exception)
    for label, future in (("finished", finished), ("failed", failed), ("cancelled", cancelled)):
        for method, argument in (("set_result", 1), ("set_exception", ValueError("late"))):
            try:
                getattr(future, method)(argument)
            except asyncio.InvalidStateError as error:
                print(f"{label}: {method}() raises {type(error).__name__}")
    print(f"done(): {pending.done()} {finished.done()} {failed.done()} {cancelled.done()}")
    print(f"cancelled(): {pending.cancelled()} {finished.cancelled()} {failed.cancelled()} "
          f"{cancelled.cancelled()}")
    loop.close()


main()
