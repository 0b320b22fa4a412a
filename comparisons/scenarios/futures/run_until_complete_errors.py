"""What run_until_complete() raises: the future's exception, CancelledError, and its own errors."""
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def show(label, call):
    try:
        value = call()
    except (Exception, asyncio.CancelledError) as error:
        print(f"{label}: {type(error).__name__}: {error}")
    else:
        print(f"{label} -> {value}")


def main():
    loop = new_virtual_loop()
    other = new_virtual_loop()
    show("future of another loop", lambda: loop.run_until_complete(other.create_future()))

    pending = loop.create_future()
    loop.call_soon(loop.stop)
    show("loop stopped first", lambda: loop.run_until_complete(pending))
    print(f"pending done() -> {pending.done()}")

    failed = loop.create_future()
    loop.call_soon(failed.set_exception, ValueError("failed"))
    show("failed future", lambda: loop.run_until_complete(failed))

    cancelled = loop.create_future()
    loop.call_soon(cancelled.cancel, "enough")
    show("cancelled future", lambda: loop.run_until_complete(cancelled))

    loop.call_soon(pending.set_result, "late")
    show("the first future, completed now", lambda: loop.run_until_complete(pending))

    loop.close()
    show("closed loop", lambda: loop.run_until_complete(loop.create_future()))
    other.close()


main()
