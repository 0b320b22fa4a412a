"""The example HTTP server's twin on asyncio streams (examples/http/).

    python3 asyncio_server.py [--port 0] [--uvloop]

Prints "PORT <n>" once listening on 127.0.0.1 and answers every request with
"Hello, world!\\n": keep-alive, pipelined requests answered in order, bodies
by Content-Length, 400 and close on a malformed head, a 10 s deadline for a
request. Stops on SIGTERM or SIGINT. The same behaviour as http_server_sNN,
written as an asyncio user would, so the benchmark compares the loops.
"""
import argparse
import asyncio
import signal
import sys

BODY = b"Hello, world!\n"
RESPONSE = (b"HTTP/1.1 200 OK\r\nServer: asyncio\r\nContent-Type: text/plain\r\n"
            b"Content-Length: %d\r\n\r\n" % len(BODY)) + BODY
CLOSING = RESPONSE.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n", 1)
BAD = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
MAX_HEAD = 8192
REQUEST_TIMEOUT = 10.0


def parse_head(head):
    """(keep_alive, content_length) of a request head, or None if malformed."""
    lines = head.split(b"\r\n")
    parts = lines[0].split(b" ")
    if len(parts) != 3 or parts[2] not in (b"HTTP/1.1", b"HTTP/1.0") or not parts[0] or not parts[1]:
        return None
    keep_alive = parts[2] == b"HTTP/1.1"
    length = 0
    for line in lines[1:]:
        name, colon, value = line.partition(b":")
        if not colon or not name or name != name.strip():
            return None
        name, value = name.lower(), value.strip()
        if name == b"content-length":
            if not value.isdigit():
                return None
            length = int(value)
        elif name == b"connection":
            tokens = [t.strip().lower() for t in value.split(b",")]
            if b"close" in tokens:
                keep_alive = False
            elif b"keep-alive" in tokens:
                keep_alive = True
    return keep_alive, length


async def serve_connection(reader, writer):
    answers = []  # to the requests that arrived together: written at once, as looplab's server does
    try:
        while True:
            try:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), REQUEST_TIMEOUT)
            except (asyncio.IncompleteReadError, asyncio.TimeoutError):
                break
            except asyncio.LimitOverrunError:
                answers.append(BAD)
                break
            parsed = parse_head(head[:-4])
            if parsed is None:
                answers.append(BAD)
                break
            keep_alive, length = parsed
            if length:
                await reader.readexactly(length)
            answers.append(RESPONSE if keep_alive else CLOSING)
            if not keep_alive:
                break
            # Pipelined requests already here are answered before writing.
            if not reader._buffer:
                writer.write(b"".join(answers))
                answers.clear()
                await writer.drain()
        writer.write(b"".join(answers))
        await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def main(port):
    server = await asyncio.start_server(serve_connection, "127.0.0.1", port, limit=MAX_HEAD)
    print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set_result, None)
    async with server:
        await stop


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--uvloop", action="store_true")
    args = parser.parse_args()
    if args.uvloop:
        import uvloop
        uvloop.install()
    asyncio.run(main(args.port))
    sys.exit(0)
