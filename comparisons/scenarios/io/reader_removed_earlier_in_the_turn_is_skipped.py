"""A reader queued for this turn but removed by an earlier callback of the turn does not run."""
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

    def remover():
        print(f"remover: remove_reader -> {loop.remove_reader(here.fileno())}")

    there.send(b"x")
    loop.call_soon(remover)  # queued before the turn; the reader is queued after it
    loop.add_reader(here.fileno(), reader)
    loop.stop()
    loop.run_forever()
    print("after turn 1")
    loop.stop()
    loop.run_forever()
    print("after turn 2")
    loop.close()
    here.close()
    there.close()


main()
