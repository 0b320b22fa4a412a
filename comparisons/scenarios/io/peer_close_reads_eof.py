"""When the peer closes, the descriptor becomes readable and the reader reads end of file."""
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
        if data:
            print(f"t={loop.time():.3f} reader read {data.decode()!r}")
            return
        print(f"t={loop.time():.3f} reader read EOF; remove_reader -> "
              f"{loop.remove_reader(here.fileno())}")
        loop.stop()

    def send():
        print(f"t={loop.time():.3f} timer: send 'hello'")
        there.send(b"hello")

    def close():
        print(f"t={loop.time():.3f} timer: close the other end")
        there.close()

    loop.add_reader(here.fileno(), reader)
    loop.call_later(0.1, send)
    loop.call_later(0.2, close)
    loop.run_forever()
    print(f"t={loop.time():.3f} run_forever returned")
    loop.close()
    here.close()


main()
