"""Readiness is level-triggered: a reader that does not drain its descriptor runs every turn."""
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

    def reader():  # never reads: the byte stays there
        nonlocal calls
        calls += 1
        print(f"t={loop.time():.3f} reader call {calls}")

    loop.add_reader(here.fileno(), reader)
    there.send(b"x")
    for _ in range(3):
        loop.stop()
        loop.run_forever()
    print(f"after 3 turns: {calls} reader calls")
    print(f"main drains {here.recv(4096).decode()!r}")
    loop.stop()
    loop.run_forever()
    print(f"after a 4th turn: {calls} reader calls")
    loop.remove_reader(here.fileno())
    loop.close()
    here.close()
    there.close()


main()
