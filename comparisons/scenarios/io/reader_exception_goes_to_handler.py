"""A reader's exception goes to the exception handler; the reader stays registered, runs again."""
import socket
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
    here, there = socket.socketpair()
    here.setblocking(False)
    there.setblocking(False)
    calls = 0

    def reader():
        nonlocal calls
        calls += 1
        if calls == 1:
            print(f"t={loop.time():.3f} reader call 1 raises ValueError('bad frame')")
            raise ValueError("bad frame")
        print(f"t={loop.time():.3f} reader call {calls} reads {here.recv(4096).decode()!r}")
        print(f"remove_reader -> {loop.remove_reader(here.fileno())}")
        loop.stop()

    loop.add_reader(here.fileno(), reader)
    there.send(b"x")
    loop.run_forever()
    print(f"t={loop.time():.3f} run_forever returned after {calls} reader calls")
    loop.close()
    here.close()
    there.close()


main()
