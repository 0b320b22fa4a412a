"""sock_accept waits with a reader for a client, and the accepted socket is non-blocking."""
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
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.setblocking(False)
    coro = loop.sock_accept(listener)
    fut = coro.send(None)  # nobody is connecting yet: a future and a reader
    print(f"sock_accept: done() -> {fut.done()}; watched descriptors {watched(loop)}")
    client = socket.create_connection(listener.getsockname())  # blocking: the kernel completes it
    print("a client connected")
    loop.stop()
    loop.run_forever()
    print(f"after one turn: done() -> {fut.done()}")
    conn, _ = fut.result()
    print(f"accepted socket non-blocking -> {not conn.getblocking()}")
    loop.stop()
    loop.run_forever()
    print(f"after the next turn: watched descriptors {watched(loop)}")
    try:
        coro.send(None)
    except StopIteration:
        pass
    conn.close()
    client.close()
    listener.close()
    loop.close()


main()
