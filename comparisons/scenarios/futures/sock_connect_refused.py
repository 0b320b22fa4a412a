"""sock_connect to a port nobody listens on fails with ECONNREFUSED (a ConnectionRefusedError,
as Python's OSError becomes for that errno, whose text names the address)
and leaves no writer behind.

The twin runs asyncio's sock_connect() coroutine by hand: connect() either
fails at once or is in progress, and then the future it waits on fails.
"""
import errno
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
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    address = probe.getsockname()
    probe.close()  # bound a moment ago, never listened: nobody is there
    client = socket.socket()
    client.setblocking(False)
    coro = loop.sock_connect(client, address)
    try:
        fut = coro.send(None)  # in progress: wait for writable
        try:
            loop.run_until_complete(fut)
        except OSError:
            pass
        coro.send(None)  # sock_connect() raises what the future holds
    except ConnectionRefusedError as error:
        print(f"sock_connect raises {type(error).__name__} errno={errno.errorcode[error.errno]}")
        # str(error), with the port (a new one each run) written as PORT.
        print("str: " + str(error).replace(str(address[1]), "PORT"))
    print(f"watched descriptors {watched(loop)}")
    client.close()
    loop.close()


main()
