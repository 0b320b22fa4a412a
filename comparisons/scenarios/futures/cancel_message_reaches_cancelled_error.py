"""cancel(msg) returns True once; result() and exception() raise CancelledError carrying msg."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def show(label, call):
    try:
        call()
    except asyncio.CancelledError as error:
        print(f"{label} raises CancelledError {str(error)!r}")


def main():
    loop = new_virtual_loop()
    fut = loop.create_future()
    fut.add_done_callback(lambda f: print(f"done callback: cancelled() -> {f.cancelled()}"))
    print(f"cancel('stop now') -> {fut.cancel('stop now')}")
    print(f"cancel('again') -> {fut.cancel('again')}")
    show("result()", fut.result)
    show("exception()", fut.exception)
    plain = loop.create_future()
    print(f"cancel() -> {plain.cancel()}")
    show("without a message: result()", plain.result)
    done = loop.create_future()
    done.set_result(1)
    print(f"cancel() of a finished future -> {done.cancel()}; result() -> {done.result()}")
    loop.stop()
    loop.run_forever()
    loop.close()


main()
