"""HTTP hello-world under wrk: looplab's example server against asyncio
(newest CPython), uvloop and nginx, each alone on one CPU, and a soak.

    python3 comparisons/http/http_bench.py --server build/release/bin/http_server_s10 \\
        --out build/report/http [--duration 10] [--connections 100] [--pipeline 64] [--soak 60] [--quick]

Each server is pinned to CPU 0 and wrk (one thread) to CPU 1; every server
gets the same connections and duration, --rounds times, the servers taking
turns, and the run with the median requests/s is reported. Measured:
requests per second, p50 and p99 latency (wrk --latency), the server's CPU
time per request (/proc/PID/stat, user + system), and how much of its CPU
each side used: a server faster than wrk leaves some of its own idle.

On two CPUs, wrk is often the slower side: it spends about as much CPU on a
request as the fastest server does. So every run is made again with
--pipeline requests (64 by default) written at once on each connection,
which HTTP/1.1 allows: wrk's cost per request falls many times, and that
second table comes close to what the servers themselves can do (at 64,
looplab's server used 90-94% of its CPU here; at 16 and 32, wrk still set
its pace). A run that wrk still paced says so, as in the first table.

The soak holds --soak-connections keep-alive connections on looplab's server
for --soak seconds and samples its resident memory and open descriptors; its
verdict needs growth under 5% from the first tenth (from when every
connection is open) to the last, no descriptor left behind once the server
has closed wrk's connections, and zero failed requests.
Writes http.json, http.md and a chart (http.svg, with matplotlib) into --out; exits 1 if a server failed or the
soak's verdict is no.
"""
import argparse
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import pythons  # noqa: E402

SERVER_CPU, CLIENT_CPU = 0, 1
BODY = "Hello, world!\n"
NGINX_CONF = """worker_processes 1;
daemon off;
master_process off;
error_log {dir}/error.log;
pid {dir}/nginx.pid;
events {{ worker_connections 8192; }}
http {{
  access_log off;
  keepalive_requests 100000000;
  keepalive_timeout 75s;
  client_body_temp_path {dir}; proxy_temp_path {dir}; fastcgi_temp_path {dir};
  uwsgi_temp_path {dir}; scgi_temp_path {dir};
  server {{
    listen 127.0.0.1:{port} backlog=4096;
    location / {{ default_type text/plain; return 200 "Hello, world!\\n"; }}
  }}
}}
"""


def cpu_seconds(pid):
    """A process's CPU time so far, user and system (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def raise_descriptor_limit(wanted=16384):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def pinned(cpu):
    def pin():
        os.sched_setaffinity(0, {cpu})
    return pin


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """A server process on SERVER_CPU, listening on 127.0.0.1:port."""

    def __init__(self, name, command, port=None, workdir=None):
        self.name, self.port, self.workdir = name, port, workdir
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=pinned(SERVER_CPU))
        if port is None:
            line = self.process.stdout.readline()
            match = re.match(r"PORT (\d+)", line)
            if not match:
                self.stop()
                raise RuntimeError(f"{name}: no PORT line (got {line!r}): {self.process.stderr.read()}")
            self.port = int(match.group(1))
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"{name}: not listening on port {self.port}")
                time.sleep(0.05)

    def cpu_seconds(self):
        return cpu_seconds(self.process.pid)

    def resident_kib(self):
        match = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{self.process.pid}/status").read_text())
        return int(match.group(1))

    def open_descriptors(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)


def children_cpu_seconds():
    """User + system CPU time of this process's waited-for children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def pipeline_script(depth):
    """A wrk Lua script that writes `depth` GET requests at once on each
    connection and waits for their `depth` responses before the next batch
    (wrk's own scripts/pipeline.lua does the same with three fixed paths)."""
    return ("init = function(args)\n"
            "  local batch = {}\n"
            f"  for i = 1, {depth} do batch[i] = wrk.format(nil, \"/\") end\n"
            "  requests = table.concat(batch)\n"
            "end\n"
            "request = function() return requests end\n")


def wrk(port, connections, duration, pipeline=1):
    """wrk's figures: requests, seconds, rps, p50/p99 in ms, errors, and the
    share of its CPU that wrk itself used (client_cpu_percent). With
    pipeline > 1, each write carries that many requests."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--latency", "--timeout", "10s",
               f"http://127.0.0.1:{port}/"]
    with tempfile.NamedTemporaryFile("w", suffix=".lua", prefix="looplab-wrk-") as script:
        if pipeline > 1:
            script.write(pipeline_script(pipeline))
            script.flush()
            command[1:1] = ["-s", script.name]
        before = children_cpu_seconds()
        out = subprocess.run(command, capture_output=True, text=True, preexec_fn=pinned(CLIENT_CPU),
                             timeout=duration + 60).stdout
        client_cpu = children_cpu_seconds() - before

    def latency(percent):
        match = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if not match:
            return None
        scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[match.group(2)]
        return float(match.group(1)) * scale

    done = re.search(r"(\d+) requests in ([\d.]+)(ms|s|m|h)", out)
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if not done:
        raise RuntimeError(f"wrk printed no result:\n{out}")
    seconds = float(done.group(2)) * {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}[done.group(3)]
    return {
        "requests": int(done.group(1)),
        "seconds": seconds,
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        # wrk's percentiles come out as zeros when a script pipelines
        # (one sample per batch, the rest empty): not a latency to report.
        "p50_ms": latency(50) if pipeline == 1 else None,
        "p99_ms": latency(99) if pipeline == 1 else None,
        "errors": errors + (int(non_2xx.group(1)) if non_2xx else 0),
        # Includes wrk's start and its last connections' close: slightly over.
        "client_cpu_percent": 100 * client_cpu / max(seconds, 1e-9),
    }


def measure(server, connections, duration, warm_up=True, pipeline=1):
    if warm_up:
        wrk(server.port, connections, 1, pipeline)  # connections, caches, the JIT-less interpreter's
    before = server.cpu_seconds()
    result = wrk(server.port, connections, duration, pipeline)
    cpu = server.cpu_seconds() - before
    result["server_cpu_us_per_request"] = 1e6 * cpu / max(result["requests"], 1)
    result["server_cpu_percent"] = 100 * cpu / max(result["seconds"], 1e-9)
    return result


def median_run(runs):
    """The run with the median requests/s (the lower middle of an even
    count), its figures kept together; every run's requests/s as rps_rounds."""
    ordered = sorted(runs, key=lambda run: run["rps"])
    return dict(ordered[(len(ordered) - 1) // 2], rps_rounds=[run["rps"] for run in runs])


# wrk gets one CPU, as the server does. A server that answers faster than
# wrk can ask leaves part of its CPU idle while wrk's is full: its requests/s
# are then wrk's limit, not its own, and only its CPU per request says how
# many it could serve.
SATURATED_PERCENT = 95


def client_bound(result):
    """True if wrk, not the server, set this run's pace."""
    return (result["client_cpu_percent"] >= SATURATED_PERCENT
            and result["server_cpu_percent"] < SATURATED_PERCENT)


def settled_descriptors(server, idle, wait=5.0):
    """The server's open descriptors once it has closed the connections wrk
    left (at most `wait` seconds on: a busy machine closes them later)."""
    deadline = time.monotonic() + wait
    count = server.open_descriptors()
    while count > idle and time.monotonic() < deadline:
        time.sleep(0.05)
        count = server.open_descriptors()
    return count


def soak(server, connections, duration):
    """Resident memory and descriptors through a long wrk run on `server`."""
    samples = []
    stop = threading.Event()

    def sample():
        start = time.monotonic()
        while not stop.wait(max(duration / 50, 0.05)):
            samples.append((time.monotonic() - start, server.resident_kib(), server.open_descriptors()))

    idle_descriptors = server.open_descriptors()
    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        result = wrk(server.port, connections, duration)
    finally:
        stop.set()
        sampler.join()
    result.update(soak_figures(samples, connections, duration, idle_descriptors,
                               settled_descriptors(server, idle_descriptors)))
    result["verdict"] = (result["rss_growth_percent"] < 5.0 and result["errors"] == 0
                         and result["descriptors_idle_after"] <= result["descriptors_idle_before"])
    return result


def soak_figures(samples, connections, duration, idle_before, idle_after):
    """The soak's figures from its samples, (seconds, resident KiB, open
    descriptors) each: memory in the first tenth and the last, descriptors.
    The first tenth counts from the first sample with every connection
    open: wrk opens them over a while, longer on a busy machine (CI runs the
    report beside its builds), and a server holding half of them would make
    a flat memory curve look like growth."""
    loaded = next((s[0] for s in samples if s[2] >= idle_before + connections), 0.0)
    tenth = [s for s in samples if loaded <= s[0] <= loaded + duration / 10] or samples[:1]
    last = [s for s in samples if s[0] >= duration * 9 / 10] or samples[-1:]
    first_rss = sum(s[1] for s in tenth) / len(tenth)
    last_rss = sum(s[1] for s in last) / len(last)
    return {
        "connections": connections,
        "seconds": duration,
        "rss_first_tenth_kib": round(first_rss),
        "rss_last_tenth_kib": round(last_rss),
        "rss_growth_percent": round(100.0 * (last_rss - first_rss) / first_rss, 2),
        "descriptors_idle_before": idle_before,
        "descriptors_idle_after": idle_after,
        "descriptors_peak": max((s[2] for s in samples), default=0),
    }


def servers(args):
    """(name, start) for each server this machine can run."""
    found = [("looplab", lambda: Server("looplab", [args.server]))]
    twin = str(HERE / "asyncio_server.py")
    try:
        cpython = pythons.newest_cpython()
        found.append((f"CPython {'.'.join(map(str, cpython.version))} asyncio",
                      lambda: Server("asyncio", [cpython.path, twin])))
    except pythons.InterpreterError as error:
        print(f"http_bench: no CPython: {error}", file=sys.stderr)
    uv = pythons.uvloop_python()
    if uv is not None:
        found.append((f"uvloop {pythons.module_version(uv, 'uvloop')}",
                      lambda: Server("uvloop", [uv.path, twin, "--uvloop"])))
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if nginx:
        def start_nginx():
            port, workdir = free_port(), tempfile.mkdtemp(prefix="looplab-nginx-")
            Path(workdir, "nginx.conf").write_text(NGINX_CONF.format(dir=workdir, port=port))
            return Server("nginx", [nginx, "-c", f"{workdir}/nginx.conf", "-p", workdir], port=port, workdir=workdir)
        found.append(("nginx (1 worker)", start_nginx))
    return found


KINDS = (("looplab", "looplab"), ("CPython", "asyncio"), ("uvloop", "uvloop"), ("nginx", "native"))


def kind(name):
    """The report's colour family of a server (looplab_report.charts.KIND_COLOURS)."""
    return next((k for prefix, k in KINDS if name.startswith(prefix)), "asyncio")


def targets(results, pipeline=1):
    """(what, measured, goal, met) for each of the HTTP goals that this run's
    servers let it check: looplab's requests/s at least 0.9x nginx's and 5x
    CPython asyncio's, its p99 latency at most 1.2x nginx's. For the
    pipelined runs (pipeline > 1) the same, but for the latency: wrk then
    times a request from its batch's write, so its p99 says how long a batch
    took, not one request."""
    named = (lambda what: f"{what}, {pipeline} pipelined") if pipeline > 1 else (lambda what: what)
    looplab = results.get("looplab")
    nginx = next((r for n, r in results.items() if kind(n) == "native"), None)
    cpython = next(((n, r) for n, r in results.items() if n.startswith("CPython")), None)
    checks = []
    if looplab and nginx:
        ratio = looplab["rps"] / nginx["rps"]
        checks.append((named("requests/s, looplab / nginx"), f"{ratio:.2f}x", "at least 0.9x", ratio >= 0.9))
        if pipeline == 1:
            ratio = looplab["p99_ms"] / nginx["p99_ms"]
            checks.append(("p99 latency, looplab / nginx", f"{ratio:.2f}x", "at most 1.2x", ratio <= 1.2))
    if looplab and cpython:
        ratio = looplab["rps"] / cpython[1]["rps"]
        measured = f"{ratio:.2f}x"
        if client_bound(looplab):
            measured += (f", wrk-bound (wrk {looplab['client_cpu_percent']:.0f}% of its CPU, looplab"
                         f" {looplab['server_cpu_percent']:.0f}% of its own)")
        checks.append((named(f"requests/s, looplab / {cpython[0]}"), measured, "at least 5x", ratio >= 5))
        # What requests/s would show with a client that keeps up: the
        # requests each server answers per second of its own CPU.
        ratio = cpython[1]["server_cpu_us_per_request"] / looplab["server_cpu_us_per_request"]
        checks.append((named(f"server CPU per request, {cpython[0]} / looplab"), f"{ratio:.2f}x", "at least 5x",
                       ratio >= 5))
    return checks


def chart(results, path):
    """Requests per second and p99 latency, one bar per server; False
    without matplotlib."""
    from looplab_report.charts import KIND_COLOURS, WIDTH, load_pyplot, save
    pyplot = load_pyplot()
    if pyplot is None or not results:
        return False
    names = list(results)
    colours = [KIND_COLOURS[kind(n)] for n in names]
    figure, (rps_axes, p99_axes) = pyplot.subplots(1, 2, figsize=(WIDTH, 0.45 * len(names) + 1.5), sharey=True)
    positions = range(len(names))
    for axes, key, label, fmt in ((rps_axes, "rps", "requests per second (more is better)", "{:,.0f}"),
                                  (p99_axes, "p99_ms", "p99 latency, ms (less is better)", "{:.2f}")):
        values = [results[n][key] for n in names]
        axes.barh(positions, values, color=colours)
        axes.set_xlim(0, max(values) * 1.35)
        for position, value in zip(positions, values):
            axes.text(value, position, " " + fmt.format(value), va="center", fontsize=9)
        axes.set_xlabel(label)
    rps_axes.set_yticks(list(positions))
    rps_axes.set_yticklabels(names)
    rps_axes.invert_yaxis()
    figure.suptitle("HTTP/1.1 hello world under wrk, server on one CPU")
    save(pyplot, figure, path)
    return True


def targets_text(results, pipeline=1):
    return "; ".join(f"{what}: {measured} (goal {goal}): {'met' if met else 'NOT met'}"
                     for what, measured, goal, met in targets(results, pipeline))


BUSY_NOTE = ("Server CPU % and wrk CPU %: the share of its one CPU each used during the run. A server under"
             f" {SATURATED_PERCENT}% while wrk is over it answered faster than wrk could ask: its requests/s are"
             " wrk's limit, and its CPU per request is the fairer comparison.")


def rounds_text(args):
    rounds = getattr(args, "rounds", 1)
    return "one run each" if rounds == 1 else f"the median of {rounds} runs each, the servers taking turns"


def busy(result, who):
    """A run's server or client CPU share, in percent, for the tables."""
    return f"{result[f'{who}_cpu_percent']:.0f}"


def pipelined_note(pipeline):
    return (f"The same, with wrk writing {pipeline} requests at once on each connection (a Lua script) and"
            f" waiting for their {pipeline} answers: wrk's CPU per request falls many times, so on two CPUs this"
            " run comes closer to what each server can do. looplab's server and the asyncio twin"
            " answer the requests that arrived together with one write; nginx writes each answer as it makes"
            " it. wrk reports no usable latency percentiles for pipelined requests, so none are shown.")


TABLE_HEAD = ["| server | requests/s | p50 ms | p99 ms | server CPU µs/request | server CPU % | wrk CPU % | errors |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]


def milliseconds(value):
    return "–" if value is None else f"{value:.3f}"


def table_rows(results):
    return [f"| {name} | {r['rps']:,.0f} | {milliseconds(r['p50_ms'])} | {milliseconds(r['p99_ms'])} | "
            f"{r['server_cpu_us_per_request']:.2f} | {busy(r, 'server')} | {busy(r, 'client')} | {r['errors']} |"
            for name, r in results.items()]


def markdown(results, soaked, args, pipelined=None):
    lines = [f"HTTP/1.1 hello world, wrk -t1 -c{args.connections} -d{args.duration}s; server on CPU {SERVER_CPU},"
             f" wrk on CPU {CLIENT_CPU}; {rounds_text(args)}.", "", *TABLE_HEAD, *table_rows(results)]
    lines += ["", BUSY_NOTE]
    if targets(results):
        lines += ["", f"Goals: {targets_text(results)}."]
    if pipelined:
        lines += ["", pipelined_note(args.pipeline), "", *TABLE_HEAD, *table_rows(pipelined)]
        if targets(pipelined, args.pipeline):
            lines += ["", f"Goals, pipelined: {targets_text(pipelined, args.pipeline)}."]
    if soaked:
        s = soaked
        lines += ["", f"Soak: looplab, {s['connections']} keep-alive connections for {s['seconds']} s: "
                  f"{s['requests']:,} requests, {s['errors']} failed; resident memory {s['rss_first_tenth_kib']:,} KiB "
                  f"in the first tenth, {s['rss_last_tenth_kib']:,} KiB in the last ({s['rss_growth_percent']:+.2f}%); "
                  f"descriptors {s['descriptors_idle_before']} idle before, {s['descriptors_peak']} at the peak, "
                  f"{s['descriptors_idle_after']} idle after: {'pass' if s['verdict'] else 'FAIL'}."]
    return "\n".join(lines) + "\n"


def html_table(results):
    from html import escape
    rows = "".join(
        f"<tr><td>{escape(name)}</td><td>{r['rps']:,.0f}</td><td>{milliseconds(r['p50_ms'])}</td>"
        f"<td>{milliseconds(r['p99_ms'])}</td>"
        f"<td>{r['server_cpu_us_per_request']:.2f}</td><td>{busy(r, 'server')}</td><td>{busy(r, 'client')}</td>"
        f"<td>{r['errors']}</td></tr>" for name, r in results.items())
    return (f"<table><tr><th>server</th><th>requests/s</th><th>p50 ms</th><th>p99 ms</th>"
            f"<th>server CPU µs/request</th><th>server CPU %</th><th>wrk CPU %</th><th>errors</th></tr>"
            f"{rows}</table>\n")


def html(results, soaked, args, pipelined=None):
    """The same as markdown(), as a section of the report's HTML page."""
    from html import escape

    from looplab_report.document import Chart
    from looplab_report.html import chart_lines
    soak_text = markdown({}, soaked, args).rsplit("\n\n", 1)[1] if soaked else ""
    goals = f"<p>Goals: {escape(targets_text(results))}.</p>\n" if targets(results) else ""
    if pipelined:
        goals += f"<p>{escape(pipelined_note(args.pipeline))}</p>\n{html_table(pipelined)}"
        if targets(pipelined, args.pipeline):
            goals += f"<p>Goals, pipelined: {escape(targets_text(pipelined, args.pipeline))}.</p>\n"
    svg = Path(args.out) / "http.svg"
    picture = chart_lines(Chart("http", svg, "charts/http.svg"))[0] + "\n" if svg.is_file() else ""
    return (f'<h2 id="http">HTTP server under wrk (examples/http)</h2>\n'
            f"<p>HTTP/1.1 hello world, wrk -t1 -c{args.connections} -d{args.duration}s; server on CPU {SERVER_CPU}, "
            f"wrk on CPU {CLIENT_CPU}; {escape(rounds_text(args))}.</p>\n"
            f"{html_table(results)}<p>{escape(BUSY_NOTE)}</p>\n{goals}{picture}<p>{escape(soak_text.strip())}</p>\n")


def add_to_report(results, soaked, args, pipelined=None):
    """Appends the section to the report's report.md and index.html, if given."""
    report = Path(args.report)
    picture = ""
    if (Path(args.out) / "http.svg").is_file():
        (report / "charts").mkdir(exist_ok=True)
        shutil.copy(Path(args.out) / "http.svg", report / "charts" / "http.svg")
        picture = "\n![HTTP server under wrk](charts/http.svg)\n"
    with open(report / "report.md", "a") as md:
        md.write("\n## HTTP server under wrk (examples/http)\n\n" + markdown(results, soaked, args, pipelined)
                 + picture)
    page = report / "index.html"
    text = page.read_text()
    page.write_text(text.replace("</body>", html(results, soaked, args, pipelined) + "</body>", 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True, help="looplab's http_server_sNN")
    parser.add_argument("--out", required=True)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--soak", type=int, default=60, help="seconds (0: no soak)")
    parser.add_argument("--soak-connections", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3,
                        help="runs per server, the servers taking turns; the median run is reported")
    parser.add_argument("--pipeline", type=int, default=64,
                        help="requests per write in a second set of runs (1: no second set)")
    parser.add_argument("--quick", action="store_true", help="one round of 2 s runs and a 5 s soak: a smoke test")
    parser.add_argument("--report", help="a report's folder (make report): add the table to its report.md and "
                        "index.html")
    args = parser.parse_args()
    if args.quick:
        args.duration, args.soak, args.rounds = 2, 5, 1
    if not shutil.which("wrk"):
        print("http_bench: wrk is not installed (Debian: apt-get install wrk)", file=sys.stderr)
        return 1
    raise_descriptor_limit()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started, results, pipelined, soaked, failed = {}, {}, {}, None, False
    try:
        for name, start in servers(args):
            try:
                started[name] = start()
            except RuntimeError as error:
                print(f"http_bench: {error}", file=sys.stderr)
                failed = True
        # Round after round, each server in turn: a machine that slows down
        # for a while slows every server's figures alike, not one server's.
        depths = [1] + ([args.pipeline] if args.pipeline > 1 else [])
        runs = {(name, depth): [] for name in started for depth in depths}
        for round_number in range(args.rounds):
            for name, server in started.items():
                for depth in depths:
                    runs[name, depth].append(measure(server, args.connections, args.duration,
                                                     warm_up=round_number == 0, pipeline=depth))
        for (name, depth), server_runs in runs.items():
            into = results if depth == 1 else pipelined
            into[name] = median_run(server_runs)
            failed |= any(run["errors"] > 0 for run in server_runs)
            print(f"http_bench: {name}, {depth} a write: {into[name]['rps']:,.0f} requests/s", file=sys.stderr)
        if "looplab" in started and args.soak:
            soaked = soak(started["looplab"], args.soak_connections, args.soak)
            failed |= not soaked["verdict"]
    finally:
        for server in started.values():
            server.stop()
    (out / "http.json").write_text(json.dumps({"runs": results, "pipelined_runs": pipelined, "soak": soaked,
                                               "connections": args.connections, "duration": args.duration,
                                               "rounds": args.rounds, "pipeline": args.pipeline},
                                              indent=2) + "\n")
    (out / "http.md").write_text(markdown(results, soaked, args, pipelined))
    chart(results, out / "http.svg")
    print(markdown(results, soaked, args, pipelined))
    if args.report:
        add_to_report(results, soaked, args, pipelined)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
