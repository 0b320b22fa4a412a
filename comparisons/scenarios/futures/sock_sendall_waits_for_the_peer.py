"""sock_sendall of more than the socket buffers hold waits with a writer until the peer drains it.

The twin runs asyncio's sock_sendall() coroutine by hand up to the future it
waits on. asyncio sends once per writable event, looplab until the kernel
says EAGAIN: how much goes out per turn differs, so the trace shows totals.
"""
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

SIZE = 4 * 1024 * 1024


def watched(loop):
    """Descriptors the loop watches, leaving out its own self-pipe."""
    return len(loop._selector.get_map()) - len(loop._selector.idle_fds)


def main():
    loop = new_virtual_loop()
    here, there = socket.socketpair()
    here.setblocking(False)
    there.setblocking(False)
    data = (bytes(i * 7 % 251 for i in range(251)) * (SIZE // 251 + 1))[:SIZE]
    coro = loop.sock_sendall(here, data)
    fut = coro.send(None)  # the buffers filled up: a future and a writer
    print(f"sock_sendall(4 MiB): done() -> {fut.done()}; watched descriptors {watched(loop)}")
    loop.stop()
    loop.run_forever()
    print(f"after one turn, nobody reading: done() -> {fut.done()}")

    received = bytearray()

    def drain():
        while True:
            try:
                chunk = there.recv(65536)
            except BlockingIOError:
                return
            if not chunk:
                return
            received.extend(chunk)

    loop.add_reader(there.fileno(), drain)
    print("peer reader added")
    print(f"run_until_complete -> {loop.run_until_complete(fut)}")
    try:
        coro.send(None)
    except StopIteration:
        pass
    while len(received) < len(data):
        loop.stop()
        loop.run_forever()
    loop.remove_reader(there.fileno())
    print(f"peer received {len(received)} bytes, intact: {bytes(received) == data}")
    print(f"watched descriptors {watched(loop)}")
    loop.close()
    here.close()
    there.close()


main()
