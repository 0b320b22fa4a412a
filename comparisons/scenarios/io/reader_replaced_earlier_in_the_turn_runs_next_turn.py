"""A reader replaced earlier in the turn does not run; its replacement runs in the next turn."""
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

    def old_reader():
        print("old reader ran")

    def new_reader():
        print(f"new reader read {here.recv(4096).decode()!r}")

    def replacer():
        loop.add_reader(here.fileno(), new_reader)
        print("replacer: add_reader(new_reader)")

    there.send(b"x")
    loop.call_soon(replacer)  # queued before the turn; the old reader is queued after it
    loop.add_reader(here.fileno(), old_reader)
    loop.stop()
    loop.run_forever()
    print("after turn 1")
    loop.stop()
    loop.run_forever()
    print("after turn 2")
    print(f"remove_reader -> {loop.remove_reader(here.fileno())}")
    loop.close()
    here.close()
    there.close()


main()
