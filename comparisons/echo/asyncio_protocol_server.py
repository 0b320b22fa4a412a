"""TCP echo server, asyncio Protocol style: data_received -> transport.write.

One of the servers of the TCP echo benchmark (README.md here)::

    python3 asyncio_protocol_server.py [--loop asyncio|uvloop] [--port 0]

Prints ``PORT <n>`` on stdout once listening (``--port 0``, the default, lets
the kernel pick a free port), serves until SIGTERM or SIGINT, then exits 0.
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import echo_server_common  # noqa: E402


class EchoProtocol(asyncio.Protocol):
    """Writes every chunk straight back. transport.write() tries a send() at
    once and only buffers (and watches for "writable") what the kernel did not
    take, so an echo usually costs one recv() and one send()."""

    def __init__(self, transports: set) -> None:
        self.transports = transports
        self.transport = None

    def connection_made(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        self.transports.add(transport)
        echo_server_common.set_nodelay(transport.get_extra_info("socket"))

    def data_received(self, data: bytes) -> None:
        self.transport.write(data)

    # eof_received() is not overridden: returning None closes the transport,
    # which is what an echo server does when its client has finished.

    def connection_lost(self, exc) -> None:
        self.transports.discard(self.transport)


async def serve(port: int) -> None:
    loop = asyncio.get_running_loop()
    transports: set = set()
    server = await loop.create_server(lambda: EchoProtocol(transports), "127.0.0.1", port)
    stop = echo_server_common.stop_on_signals(loop)
    echo_server_common.announce(server)
    await stop.wait()
    server.close()
    for transport in list(transports):
        transport.abort()  # clients still connected at shutdown: drop them
    await asyncio.sleep(0)  # let connection_lost() callbacks run


if __name__ == "__main__":
    sys.exit(echo_server_common.main(__doc__, serve))
