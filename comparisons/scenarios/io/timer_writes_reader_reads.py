"""The loop waits for a timer and a reader at once: a timer's write wakes the reader at its time."""
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
        print(f"t={loop.time():.3f} reader read {here.recv(4096).decode()!r}")
        loop.remove_reader(here.fileno())
        loop.stop()

    def write():
        print(f"t={loop.time():.3f} timer writes 'ping'")
        there.send(b"ping")

    loop.add_reader(here.fileno(), reader)
    loop.call_later(0.25, write)
    print(f"t={loop.time():.3f} run_forever")
    loop.run_forever()
    print(f"t={loop.time():.3f} run_forever returned")
    loop.close()
    here.close()
    there.close()


main()
