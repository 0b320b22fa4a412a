"""comparisons/http/http_bench.py: the goals checked on a run's figures, and
the report section that shows them."""
import sys
import types
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "comparisons" / "http"))
import http_bench  # noqa: E402


def run(rps, p99_ms, server_cpu_percent=100.0, client_cpu_percent=60.0):
    return {"rps": rps, "p50_ms": p99_ms / 2, "p99_ms": p99_ms,
            "server_cpu_us_per_request": 1e6 * server_cpu_percent / 100 / rps,
            "server_cpu_percent": server_cpu_percent, "client_cpu_percent": client_cpu_percent, "errors": 0}


RESULTS = {
    "looplab": run(90_000, 1.4),
    "CPython 3.13.0 asyncio": run(20_000, 7.8),
    "uvloop 0.17.0": run(30_000, 5.6),
    "nginx (1 worker)": run(80_000, 1.8),
}


class Targets(unittest.TestCase):
    def test_each_goal_is_checked_on_the_ratio_of_the_same_run(self):
        checks = {what: (measured, met) for what, measured, _, met in http_bench.targets(RESULTS)}
        self.assertEqual(checks["requests/s, looplab / nginx"], ("1.12x", True))
        self.assertEqual(checks["p99 latency, looplab / nginx"], ("0.78x", True))
        self.assertEqual(checks["requests/s, looplab / CPython 3.13.0 asyncio"], ("4.50x", False))

    def test_a_p99_over_the_bound_is_not_met(self):
        slow = dict(RESULTS, looplab=run(90_000, 2.4))
        checks = {what: met for what, _, _, met in http_bench.targets(slow)}
        self.assertFalse(checks["p99 latency, looplab / nginx"])

    def test_without_nginx_only_the_cpython_goals_are_checked(self):
        alone = {name: r for name, r in RESULTS.items() if not name.startswith("nginx")}
        self.assertEqual([what for what, *_ in http_bench.targets(alone)],
                         ["requests/s, looplab / CPython 3.13.0 asyncio",
                          "server CPU per request, CPython 3.13.0 asyncio / looplab"])

    def test_a_run_that_wrk_could_not_keep_up_with_says_so(self):
        # wrk used all of its CPU, looplab 80% of its own: 90,000 requests/s
        # on 80% of a CPU is 8.9 us each, against CPython's 50 us.
        paced = dict(RESULTS, looplab=run(90_000, 1.4, server_cpu_percent=80, client_cpu_percent=100))
        self.assertTrue(http_bench.client_bound(paced["looplab"]))
        self.assertFalse(http_bench.client_bound(RESULTS["looplab"]))
        checks = {what: (measured, met) for what, measured, _, met in http_bench.targets(paced)}
        self.assertEqual(checks["requests/s, looplab / CPython 3.13.0 asyncio"],
                         ("4.50x, wrk-bound (wrk 100% of its CPU, looplab 80% of its own)", False))
        self.assertEqual(checks["server CPU per request, CPython 3.13.0 asyncio / looplab"], ("5.62x", True))

    def test_the_tables_show_each_side_s_share_of_its_cpu(self):
        args = types.SimpleNamespace(connections=100, duration=10, out="/nonexistent")
        paced = dict(RESULTS, looplab=run(90_000, 1.4, server_cpu_percent=80, client_cpu_percent=100))
        row = "| looplab | 90,000 | 0.700 | 1.400 | 8.89 | 80 | 100 | 0 |"
        self.assertIn(row, http_bench.markdown(paced, None, args))

    def test_the_markdown_section_says_which_goals_are_met(self):
        args = types.SimpleNamespace(connections=100, duration=10, out="/nonexistent")
        text = http_bench.markdown(RESULTS, None, args)
        self.assertIn("| looplab | 90,000 |", text)
        self.assertIn("(goal at least 0.9x): met", text)
        self.assertIn("(goal at least 5x): NOT met", text)


class Rounds(unittest.TestCase):
    def test_the_median_run_is_reported_whole_with_every_round_s_rate(self):
        runs = [run(80_000, 1.0), run(95_000, 3.0), run(90_000, 2.0)]
        median = http_bench.median_run(runs)
        self.assertEqual((median["rps"], median["p99_ms"]), (90_000, 2.0))
        self.assertEqual(median["rps_rounds"], [80_000, 95_000, 90_000])

    def test_of_two_runs_the_slower_is_reported(self):
        self.assertEqual(http_bench.median_run([run(95_000, 1.0), run(80_000, 1.0)])["rps"], 80_000)


if __name__ == "__main__":
    unittest.main()


class Pipelined(unittest.TestCase):
    def test_the_script_writes_the_requests_of_a_batch_at_once(self):
        script = http_bench.pipeline_script(16)
        self.assertIn("for i = 1, 16 do", script)
        self.assertIn("request = function() return requests end", script)

    def test_the_pipelined_goals_are_named_so_and_leave_latency_out(self):
        checks = {what: (measured, met) for what, measured, _, met in http_bench.targets(RESULTS, pipeline=16)}
        self.assertEqual(sorted(checks),
                         ["requests/s, looplab / CPython 3.13.0 asyncio, 16 pipelined",
                          "requests/s, looplab / nginx, 16 pipelined",
                          "server CPU per request, CPython 3.13.0 asyncio / looplab, 16 pipelined"])
        self.assertEqual(checks["requests/s, looplab / nginx, 16 pipelined"], ("1.12x", True))

    def test_the_report_shows_the_pipelined_table_after_the_plain_one(self):
        args = types.SimpleNamespace(connections=100, duration=10, out="/nonexistent", pipeline=16)
        pipelined = {name: dict(r, p50_ms=None, p99_ms=None) for name, r in RESULTS.items()}
        pipelined["looplab"] = dict(run(900_000, 3.0), p50_ms=None, p99_ms=None)
        text = http_bench.markdown(RESULTS, None, args, pipelined)
        self.assertIn("| looplab | 900,000 | – | – | 1.11 |", text)
        self.assertLess(text.index("| looplab | 90,000 |"), text.index("| looplab | 900,000 |"))
        self.assertIn("Goals, pipelined: requests/s, looplab / nginx, 16 pipelined: 11.25x", text)
        self.assertNotIn("| looplab | 900,000 |", http_bench.markdown(RESULTS, None, args))


def ramped_samples(connections=1000, idle=5, ramp=1.5, duration=5.0, growth_per_s=0.0):
    """A soak's samples every 0.1 s: wrk opens its connections over `ramp`
    seconds, each holding 10 KiB, and memory grows by `growth_per_s` KiB
    a second on top."""
    samples = []
    for step in range(1, int(duration * 10) + 1):
        t = step / 10
        open_now = min(connections, round(connections * t / ramp))
        samples.append((t, 20_000 + 10 * open_now + growth_per_s * t, idle + open_now))
    return samples


class Soak(unittest.TestCase):
    def test_memory_counts_from_when_every_connection_is_open(self):
        # Opening them took 1.5 s of a 5 s soak: the first tenth of the run
        # held a tenth of them, but the server's memory is flat once they are.
        figures = http_bench.soak_figures(ramped_samples(), 1000, 5.0, idle_before=5, idle_after=5)
        self.assertEqual(figures["rss_first_tenth_kib"], 30_000)
        self.assertEqual(figures["rss_growth_percent"], 0.0)
        self.assertEqual(figures["descriptors_peak"], 1005)

    def test_memory_that_keeps_growing_is_growth(self):
        figures = http_bench.soak_figures(ramped_samples(growth_per_s=1_000), 1000, 5.0, idle_before=5, idle_after=5)
        self.assertGreater(figures["rss_growth_percent"], 5.0)

    def test_a_soak_whose_connections_never_all_open_counts_from_its_start(self):
        samples = ramped_samples(connections=500)  # the server accepted half of wrk's 1000
        figures = http_bench.soak_figures(samples, 1000, 5.0, idle_before=5, idle_after=5)
        self.assertEqual(figures["rss_first_tenth_kib"], round(sum(s[1] for s in samples[:5]) / 5))

    def test_the_descriptors_left_are_counted_once_the_server_closed_them(self):
        class Closing:  # closes wrk's connections over three looks
            counts = [1005, 400, 5]

            def open_descriptors(self):
                return self.counts.pop(0) if len(self.counts) > 1 else self.counts[0]

        self.assertEqual(http_bench.settled_descriptors(Closing(), idle=5), 5)
        self.assertEqual(http_bench.settled_descriptors(types.SimpleNamespace(open_descriptors=lambda: 9), idle=5,
                                                        wait=0.0), 9)
