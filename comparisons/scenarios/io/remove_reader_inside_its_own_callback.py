"""A reader may remove itself while it runs: it returns True and the reader never runs again."""
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
    calls = 0

    def reader():
        nonlocal calls
        calls += 1
        print(f"t={loop.time():.3f} reader read {here.recv(4096).decode()!r}")
        print(f"t={loop.time():.3f} reader removes itself: remove_reader -> "
              f"{loop.remove_reader(here.fileno())}")

    def write_again():
        print(f"t={loop.time():.3f} timer writes 'second'")
        there.send(b"second")

    def finish():
        print(f"t={loop.time():.3f} timer: {calls} reader call(s); remove_reader -> "
              f"{loop.remove_reader(here.fileno())}")
        loop.stop()

    loop.add_reader(here.fileno(), reader)
    there.send(b"first")
    loop.call_later(0.1, write_again)
    loop.call_later(0.2, finish)
    loop.run_forever()
    loop.close()
    here.close()
    there.close()


main()
