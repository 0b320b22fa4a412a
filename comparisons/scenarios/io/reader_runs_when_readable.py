"""A reader runs in the first turn in which its descriptor is readable, not before."""
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
        data = here.recv(4096)
        print(f"t={loop.time():.3f} reader read {data.decode()!r}")

    loop.add_reader(here.fileno(), reader)
    print("turn 1: nothing written yet")
    loop.stop()
    loop.run_forever()
    there.send(b"ping")
    print("turn 2: 'ping' written")
    loop.stop()
    loop.run_forever()
    print(f"remove_reader -> {loop.remove_reader(here.fileno())}")
    loop.close()
    here.close()
    there.close()


main()
