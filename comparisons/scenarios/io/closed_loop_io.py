"""After close(), add_reader/add_writer raise RuntimeError and remove_reader/writer return False."""
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def attempt(label, action):
    try:
        action()
        print(f"{label}: no error")
    except RuntimeError as exc:
        print(f"{label}: {type(exc).__name__}: {exc}")


def main():
    loop = new_virtual_loop()
    here, there = socket.socketpair()
    here.setblocking(False)
    there.setblocking(False)
    loop.add_reader(here.fileno(), print, "reader ran")
    loop.add_writer(here.fileno(), print, "writer ran")
    loop.close()
    print(f"is_closed() = {loop.is_closed()}")
    attempt("add_reader", lambda: loop.add_reader(there.fileno(), print, "never"))
    attempt("add_writer", lambda: loop.add_writer(there.fileno(), print, "never"))
    print(f"remove_reader (added before close) -> {loop.remove_reader(here.fileno())}")
    print(f"remove_writer (added before close) -> {loop.remove_writer(here.fileno())}")
    print(f"remove_reader (never added) -> {loop.remove_reader(there.fileno())}")
    here.close()
    there.close()


main()
