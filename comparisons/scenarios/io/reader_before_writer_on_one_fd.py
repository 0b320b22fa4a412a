"""When one descriptor is readable and writable in a turn, its reader runs before its writer."""
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

    loop.add_writer(here.fileno(), writer)  # the writer is added first
    loop.add_reader(here.fileno(), reader)
    there.send(b"x")
    loop.stop()
    loop.run_forever()
    print(f"remove_reader -> {loop.remove_reader(here.fileno())}")
    print(f"remove_writer -> {loop.remove_writer(here.fileno())}")
    loop.close()
    here.close()
    there.close()


main()
