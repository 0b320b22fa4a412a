"""remove_reader returns whether a reader was registered; a removed reader never runs."""
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
        print("reader ran")

    loop.add_reader(here.fileno(), reader)
    print(f"remove_reader -> {loop.remove_reader(here.fileno())}")
    print(f"remove_reader again -> {loop.remove_reader(here.fileno())}")
    print(f"remove_writer (never added) -> {loop.remove_writer(here.fileno())}")
    print(f"remove_reader of the other end (never added) -> {loop.remove_reader(there.fileno())}")
    there.send(b"x")
    loop.stop()
    loop.run_forever()
    print("one turn with data waiting: the removed reader did not run")
    loop.close()
    here.close()
    there.close()


main()
