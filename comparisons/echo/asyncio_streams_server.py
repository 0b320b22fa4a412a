"""TCP echo server, asyncio streams style: start_server, read, write, drain.

One of the servers of the TCP echo benchmark (README.md here)::

    python3 asyncio_streams_server.py [--loop asyncio|uvloop] [--port 0]

Prints ``PORT <n>`` on stdout once listening (``--port 0``, the default, lets
the kernel pick a free port), serves until SIGTERM or SIGINT, then exits 0.

Each connection is a task running ``handle()``. Compared with the Protocol
server, every chunk also goes through a StreamReader's buffer, a Future that
wakes the task, and the task's coroutine steps: what the comfortable API costs.
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import echo_server_common  # noqa: E402


async def serve(port: int) -> None:
    writers: set = set()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writers.add(writer)
        echo_server_common.set_nodelay(writer.get_extra_info("socket"))
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except ConnectionError:
            pass  # the client went away: nothing to echo to
        finally:
            writers.discard(writer)
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", port)
    stop = echo_server_common.stop_on_signals(asyncio.get_running_loop())
    echo_server_common.announce(server)
    await stop.wait()
    server.close()
    for writer in list(writers):
        writer.transport.abort()  # clients still connected at shutdown: drop them
    # The handler tasks still running see their reader end and finish; any
    # left are cancelled by asyncio.Runner when serve() returns.
    await asyncio.sleep(0)


if __name__ == "__main__":
    sys.exit(echo_server_common.main(__doc__, serve))
