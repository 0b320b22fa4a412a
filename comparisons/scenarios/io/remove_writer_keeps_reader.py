"""Removing a descriptor's writer leaves its reader registered, and the reverse."""
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

    def reader():
        print(f"reader read {here.recv(4096).decode()!r}")

    def writer():
        print("writer ran")

    loop.add_reader(here.fileno(), reader)
    loop.add_writer(here.fileno(), writer)
    print(f"remove_writer -> {loop.remove_writer(here.fileno())}")
    there.send(b"ping")
    loop.stop()
    loop.run_forever()
    print(f"remove_writer again -> {loop.remove_writer(here.fileno())}")
    loop.add_writer(here.fileno(), writer)
    print(f"remove_reader -> {loop.remove_reader(here.fileno())}")
    there.send(b"pong")
    loop.stop()
    loop.run_forever()
    print(f"remove_writer -> {loop.remove_writer(here.fileno())}")
    print(f"remove_reader again -> {loop.remove_reader(here.fileno())}")
    loop.close()
    here.close()
    there.close()


main()
