"""One waiter per descriptor: a second sock_recv replaces the first's reader; the first never completes.

The twin runs asyncio's sock_recv() coroutines by hand up to the futures they
wait on (coro.send(None)): those are what looplab's sock_recv returns.
"""
import socket
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

turn = 0


def watched(loop):
    """Descriptors the loop watches, leaving out its own self-pipe."""
    return len(loop._selector.get_map()) - len(loop._selector.idle_fds)


def main():
    global turn
    loop = new_virtual_loop()
    here, there = socket.socketpair()
    here.setblocking(False)
    there.setblocking(False)

    def one_turn():
        global turn
        turn += 1
        loop.stop()
        loop.run_forever()

    first_coro = loop.sock_recv(here, 100)
    first = first_coro.send(None)
    second_coro = loop.sock_recv(here, 100)
    second = second_coro.send(None)
    print(f"two sock_recv waiting; watched descriptors {watched(loop)}")
    there.send(b"x")
    one_turn()
    print(f"after turn {turn}: second -> {second.result().decode()!r}; "
          f"first done() -> {first.done()}")
    one_turn()
    print(f"after turn {turn}: watched descriptors {watched(loop)}")
    there.send(b"y")
    one_turn()
    print(f"after turn {turn}: first done() -> {first.done()}")
    print(f"first.cancel() -> {first.cancel()}")
    one_turn()
    print(f"after turn {turn}: 'y' is still there: {here.recv(100).decode()!r}")
    first_coro.close()
    try:
        second_coro.send(None)
    except StopIteration:
        pass
    loop.close()
    here.close()
    there.close()


main()
