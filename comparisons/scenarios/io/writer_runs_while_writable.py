"""A writer runs every turn while its descriptor is writable, until it removes itself."""
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

    def writer():
        nonlocal calls
        calls += 1
        print(f"t={loop.time():.3f} writer call {calls}")
        if calls == 2:
            print(f"t={loop.time():.3f} writer removes itself: remove_writer -> "
                  f"{loop.remove_writer(here.fileno())}")

    def finish():
        print(f"t={loop.time():.3f} timer: {calls} writer calls")
        loop.stop()

    loop.add_writer(here.fileno(), writer)
    loop.call_later(0.1, finish)
    loop.run_forever()
    loop.close()
    here.close()
    there.close()


main()
