"""Cancelling a sock_recv whose reader was replaced leaves the new reader alone.

asyncio's done callback (_sock_read_done) removes the reader only if the
handle it registered is still there (not cancelled by a replacement).
"""
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def watched(loop):
    """Descriptors the loop watches, leaving out its own self-pipe."""
    return len(loop._selector.get_map()) - len(loop._selector.idle_fds)


def main():
    loop = new_virtual_loop()
    here, there = socket.socketpair()
    here.setblocking(False)
    there.setblocking(False)
    first_coro = loop.sock_recv(here, 100)
    first = first_coro.send(None)
    second_coro = loop.sock_recv(here, 100)
    second = second_coro.send(None)
    print(f"first.cancel() -> {first.cancel()}")
    loop.stop()
    loop.run_forever()
    print(f"after one turn: watched descriptors {watched(loop)}; second done() -> {second.done()}")
    there.send(b"for the second")
    print(f"run_until_complete(second) -> {loop.run_until_complete(second).decode()!r}")
    print(f"watched descriptors {watched(loop)}")
    first_coro.close()
    try:
        second_coro.send(None)
    except StopIteration:
        pass
    loop.close()
    here.close()
    there.close()


main()
