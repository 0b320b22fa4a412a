"""A timer callback's exception goes to the exception handler; later timers still run."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def handler(loop, context):
    message = context["message"]
    if message.startswith("Exception in callback"):
        print("handler: message starts with 'Exception in callback'")
    else:
        print(f"handler: unexpected message {message!r}")
    exc = context["exception"]
    print(f"handler: exception = {type(exc).__name__}: {exc}")


def main():
    loop = new_virtual_loop()
    loop.set_exception_handler(handler)

    def boom():
        print(f"t={loop.time():.3f} boom raises ValueError('late boom')")
        raise ValueError("late boom")

    def later():
        print(f"t={loop.time():.3f} later ran")
        loop.stop()

    loop.call_later(0.1, boom)
    loop.call_later(0.2, later)
    loop.run_forever()
    print(f"t={loop.time():.3f} run_forever returned")
    loop.close()


main()
