"""sock_recv with nothing to read waits with a reader; its done callback removes the reader.

The twin runs asyncio's sock_recv() coroutine by hand up to the future it
waits on (coro.send(None)): that future is what looplab's sock_recv returns.
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
    coro = loop.sock_recv(here, 100)
    fut = coro.send(None)  # recv() would block: a future and a reader
    print(f"sock_recv(100): done() -> {fut.done()}; watched descriptors {watched(loop)}")
    fut.add_done_callback(lambda f: print(
        f"t={loop.time():.3f} done callback: result {f.result().decode()!r}, "
        f"watched descriptors {watched(loop)}"))
    loop.stop()
    loop.run_forever()
    print(f"after one turn: done() -> {fut.done()}")

    def send():
        print(f"t={loop.time():.3f} timer: peer sends 'pong'")
        there.send(b"pong")

    loop.call_later(0.1, send)
    print(f"run_until_complete -> {loop.run_until_complete(fut).decode()!r}")
    try:
        coro.send(None)
    except StopIteration:
        pass
    print(f"watched descriptors {watched(loop)}")
    loop.close()
    here.close()
    there.close()


main()
