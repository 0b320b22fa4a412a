"""Cancelling a timer that already fired raises nothing and runs nothing again."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()
    runs = []

    def fire():
        runs.append(loop.time())
        print(f"t={loop.time():.3f} timer fired")

    handle = loop.call_later(0.1, fire)
    loop.call_later(0.5, loop.stop)
    loop.run_forever()

    handle.cancel()  # too late to matter, but not an error
    print("cancel() after it fired: no error")
    print(f"cancelled() = {handle.cancelled()}")  # asyncio sets the flag anyway

    loop.call_later(1.0, loop.stop)
    loop.run_forever()
    print(f"t={loop.time():.3f} timer ran {len(runs)} time(s)")
    loop.close()


main()
