"""A timer runs in the context copied when call_later was called, not when it fires."""
import contextvars
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

request_id = contextvars.ContextVar("request_id", default="none")


def main():
    loop = new_virtual_loop()

    def show():
        print(f"t={loop.time():.3f} show sees request_id = {request_id.get()}")

    request_id.set("req-1")
    loop.call_later(0.1, show)
    request_id.set("req-2")  # after scheduling: the timer must not see this
    print(f"main sees request_id = {request_id.get()}")
    loop.call_later(0.2, loop.stop)
    loop.run_forever()
    print(f"t={loop.time():.3f} main still sees request_id = {request_id.get()}")
    loop.close()


main()
