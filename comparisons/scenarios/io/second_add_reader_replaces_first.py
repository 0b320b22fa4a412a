"""A second add_reader for the same descriptor replaces the first: only the second runs."""
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def main():
    loop = new_virtual_loop()
    here, there = socket.socketpair()
    here.setblocking(False)
    there.setblocking(False)

    def first():
        print("first ran")

    def second():
        print(f"second read {here.recv(4096).decode()!r}")

    loop.add_reader(here.fileno(), first)
    loop.add_reader(here.fileno(), second)
    there.send(b"x")
    loop.stop()
    loop.run_forever()
    print(f"remove_reader -> {loop.remove_reader(here.fileno())}")
    print(f"remove_reader again -> {loop.remove_reader(here.fileno())}")
    loop.close()
    here.close()
    there.close()


main()
