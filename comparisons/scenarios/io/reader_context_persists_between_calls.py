"""A reader always runs in the one context add_reader copied: its changes persist between calls."""
import contextvars
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

calls = contextvars.ContextVar("calls", default=0)


def main():
    loop = new_virtual_loop()
    here, there = socket.socketpair()
    here.setblocking(False)
    there.setblocking(False)

    def reader():  # never reads: runs every turn
        calls.set(calls.get() + 1)
        print(f"reader sees calls = {calls.get()}")

    calls.set(10)
    loop.add_reader(here.fileno(), reader)
    calls.set(100)  # after add_reader: the reader must not see this
    there.send(b"x")
    for _ in range(3):
        loop.stop()
        loop.run_forever()
    print(f"main sees calls = {calls.get()}")
    loop.remove_reader(here.fileno())
    loop.close()
    here.close()
    there.close()


main()
