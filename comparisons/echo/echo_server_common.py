"""What the two asyncio echo servers share: the command line, the choice of
loop, the ``PORT <n>`` line, and stopping cleanly on SIGTERM/SIGINT."""
from __future__ import annotations

import argparse
import asyncio
import signal
import socket
import sys
from typing import Awaitable, Callable


def set_nodelay(sock) -> None:
    """TCP_NODELAY on an accepted socket. asyncio's selector transports already
    set it (base_events._set_nodelay, since 3.6) and so does uvloop; setting
    it again is harmless and keeps the benchmark independent of versions."""
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def stop_on_signals(loop: asyncio.AbstractEventLoop) -> asyncio.Event:
    """An Event set by SIGTERM or SIGINT (handled by the loop, so no
    KeyboardInterrupt traceback)."""
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    return stop


def announce(server: asyncio.AbstractServer) -> None:
    port = server.sockets[0].getsockname()[1]
    print(f"PORT {port}", flush=True)


def loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop]:
    if name == "uvloop":
        import uvloop  # only some interpreters have it
        return uvloop.new_event_loop
    return asyncio.new_event_loop


def main(doc: str, serve: Callable[[int], Awaitable[None]]) -> int:
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--loop", choices=("asyncio", "uvloop"), default="asyncio",
                        help="event loop implementation (default: asyncio)")
    parser.add_argument("--port", type=int, default=0,
                        help="TCP port on 127.0.0.1 (default 0: any free port)")
    args = parser.parse_args()
    try:
        new_loop = loop_factory(args.loop)
    except ImportError as error:
        print(f"{sys.argv[0]}: --loop uvloop: {error}", file=sys.stderr)
        return 2
    # asyncio.Runner exists from 3.11 on; debug stays off (the default).
    with asyncio.Runner(loop_factory=new_loop) as runner:
        runner.run(serve(args.port))
    return 0
