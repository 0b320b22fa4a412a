"""Runs the example HTTP server out of descriptors, for real: no injection.

    python3 comparisons/http/emfile_check.py --server build/release/bin/http_server_s10

The server starts with RLIMIT_NOFILE at --limit (32), and the check opens
--clients (64) keep-alive connections, each sending one request. The kernel
completes every handshake (the listen backlog), but the server can accept
only as many as its descriptors allow; accept4() then fails with EMFILE.
What must hold, as for asyncio's servers:

1. the connections it accepted are answered, and answered again on a second
   request (it keeps serving what it has);
2. while out of descriptors it does not spin on the readable listener: its
   CPU time over a second of waiting stays small (asyncio stops accepting
   for ACCEPT_RETRY_DELAY, 1 s, then tries again);
3. once the answered clients close, every waiting client is accepted and
   answered.

Not under the sanitizers: they need descriptors of their own for their
checks, and a process out of them gets false reports (the fault-injection
build's http_accept_test covers the same path with an injected EMFILE).
Exits 0 if all three hold, 1 with the reason otherwise.
"""
import argparse
import resource
import select
import socket
import subprocess
import sys
import time

from http_bench import cpu_seconds  # this folder

REQUEST = b"GET / HTTP/1.1\r\nHost: looplab\r\n\r\n"
ANSWER_END = b"Hello, world!\n"


def answered(connection, timeout):
    """True once a whole answer to one request has arrived within timeout."""
    connection.settimeout(timeout)
    received = b""
    try:
        while not received.endswith(ANSWER_END):
            chunk = connection.recv(4096)
            if not chunk:
                return False
            received += chunk
    except (socket.timeout, ConnectionError):
        return False
    return received.startswith(b"HTTP/1.1 200")


def check(server, limit, clients):
    def low_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    process = subprocess.Popen([server], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=low_limit)
    try:
        port = int(process.stdout.readline().split()[1])
        connections = []
        for _ in range(clients):
            connection = socket.create_connection(("127.0.0.1", port))
            connection.sendall(REQUEST)
            connections.append(connection)
        # The server answers whom it accepted at once: the first client, and
        # those with an answer waiting half a second later (a client that was
        # accepted but answered later still counts below, with the waiting).
        if not answered(connections[0], 10):
            return "the first client was not answered"
        time.sleep(0.5)
        readable = set(select.select(connections[1:], [], [], 0)[0])
        served = [connections[0]] + [c for c in connections[1:] if c in readable and answered(c, 5)]
        waiting = [c for c in connections if c not in served]
        print(f"emfile_check: RLIMIT_NOFILE {limit}: {len(served)} of {clients} clients served, "
              f"{len(waiting)} waiting in the backlog")
        if not waiting:
            return f"every client was served: raise --clients above the {limit} descriptors"
        for connection in served:
            connection.sendall(REQUEST)
        if not all(answered(c, 5) for c in served):
            return "a client the server had accepted was not answered a second time"
        before = cpu_seconds(process.pid)
        time.sleep(1.0)
        spent = cpu_seconds(process.pid) - before
        print(f"emfile_check: out of descriptors, the server used {spent:.2f} s of CPU in 1 s")
        if spent > 0.3:
            return f"the server spins while out of descriptors ({spent:.2f} s of CPU in 1 s)"
        for connection in served:
            connection.close()
        # Each retry (every second) accepts as many as the freed descriptors
        # allow, in the backlog's order; each client closes once answered.
        late = 0
        for connection in waiting:
            late += not answered(connection, 30)
            connection.close()
        if late:
            return f"{late} waiting clients were never answered after descriptors were freed"
        print(f"emfile_check: after the first {len(served)} closed, all {len(waiting)} waiting clients were answered")
        if process.poll() is not None:
            return f"the server exited ({process.returncode})"
        return None
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="looplab's http_server_sNN (a build without sanitizers)")
    parser.add_argument("--limit", type=int, default=32, help="the server's RLIMIT_NOFILE")
    parser.add_argument("--clients", type=int, default=64)
    args = parser.parse_args()
    failure = check(args.server, args.limit, args.clients)
    if failure:
        print(f"emfile_check: FAIL: {failure}", file=sys.stderr)
        return 1
    print("emfile_check: pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
