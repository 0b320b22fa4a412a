"""sock_recv with data already waiting completes without waiting: no future to wait on, no reader.

asyncio's sock_recv() is a coroutine that tries recv() first; the twin runs
it by hand (coro.send(None)): it finishes at once (StopIteration) instead of
yielding a future to wait on. looplab's sock_recv returns a future already done.
"""
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
    there.send(b"ping")
    print("peer sent 'ping'")
    coro = loop.sock_recv(here, 100)
    try:
        coro.send(None)
    except StopIteration as finished:
        print("sock_recv(100): completed without waiting -> True")
        print(f"result -> {finished.value.decode()!r}")
    else:
        print("sock_recv(100): completed without waiting -> False")
    print(f"remove_reader -> {loop.remove_reader(here.fileno())}")
    loop.close()
    here.close()
    there.close()


main()
