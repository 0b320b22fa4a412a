"""Tests for looplab_report.policy and looplab_report.targets: targets.toml,
and its targets checked against a run's figures.

Run from the repo root:  make test-tools
"""
import unittest

from looplab_report import policy, targets
from looplab_report.model import Implementation, Results

# The stages' policy, short: two goals of a stage 04 and one of a stage 05.
TOML = """
[pollers]
backends = ["select", "epoll", "io_uring"]
first_stage = 4
epoll_baseline_groups = ["io"]

[echo]
server = "tcp_echo_server"
first_stage = 4
backends = ["epoll"]

[coro_echo]
server = "tcp_echo_coro_server"
first_stage = 6
backend = "epoll"
prefix = "tcp_echo_coro"
connections = [1, 10]
name = "coro"
label = "coroutine server"
twin = "streams"

[async_tree]
prefix = "tree_"
variants = ["none", "io"]
flavours = [["", "lazy"], ["_eager", "eager"]]

[[targets]]
stage = 4
workloads = ["ping", "pong"]
checks = [
    { name = "epoll/floor", ratio = "looplab:epoll / epoll_floor", goal = "<= 1.1" },
    { name = "io_uring/epoll", ratio = "looplab:io_uring / looplab:epoll", goal = "<= 1" },
]

[[targets]]
stage = 4
workloads = ["tcp_echo_1"]
measure = "server_cpu"
checks = [{ name = "cpu", ratio = "cpython_asyncio_protocol / looplab:epoll", goal = ">= 3" }]

[[targets]]
stage = 5
workloads = ["future_resolve"]
checks = [{ name = "asyncio/looplab", ratio = "cpython_asyncio / looplab", goal = ">= 30" }]
"""


def looplab(results, stage, backend=None):
    """Add looplab stage NN (or one of its backends) to `results`."""
    suffix, label = (f"_{backend}", f" ({backend})") if backend else ("", "")
    impl = Implementation(f"looplab_s{stage:02d}{suffix}", f"looplab stage {stage:02d}{label}",
                          "looplab", baseline="cpython_asyncio", stage=stage, backend=backend)
    results.impls[impl.id] = impl
    return impl


def other(results, impl_id, label, kind="native"):
    impl = Implementation(impl_id, label, kind)
    results.impls[impl_id] = impl
    return impl


def run_with(figures):
    """Results with {workload: {impl id: ns}} recorded for impls made from their ids."""
    results = Results()
    for workload, by_impl in figures.items():
        for impl_id, ns in by_impl.items():
            if impl_id not in results.impls:
                if impl_id.startswith("looplab_s"):
                    stage, _, backend = impl_id[len("looplab_s"):].partition("_")
                    looplab(results, int(stage), backend or None)
                else:
                    other(results, impl_id, impl_id.replace("_", " "))
            results.record(workload, results.impls[impl_id], ns)
    return results


class Policy(unittest.TestCase):
    def test_the_project_file(self):
        rules = policy.load()
        self.assertEqual(rules.first_poller_stage, 4)
        self.assertIn("epoll", rules.backends)
        self.assertEqual([spec.id for spec in rules.targets], [
            "reader_pingpong:epoll/floor", "reader_pingpong:epoll/libuv",
            "reader_pingpong:io_uring/epoll", "reader_pingpong_idle1000:epoll/floor",
            "reader_pingpong_idle1000:epoll/libuv", "reader_pingpong_idle1000:io_uring/epoll",
            "tcp_echo_1:server_cpu:looplab/libuv", "tcp_echo_1:server_cpu:asyncio/looplab",
            "tcp_echo_1:server_user_cpu:looplab/libuv", "tcp_echo_1:server_user_cpu:asyncio/looplab",
            "future_resolve:asyncio/looplab", "task_sleep0:asyncio/looplab",
            "fanout_cached_eager:asyncio/looplab", "fanout_cached_eager:eager/lazy",
            "async_tree_none:asyncio/looplab", "async_tree_none_eager:asyncio/looplab",
            "async_tree_io:asyncio/looplab", "async_tree_io_eager:asyncio/looplab",
            "async_tree_memoization:asyncio/looplab", "async_tree_memoization_eager:asyncio/looplab",
            "async_tree_cpu_io_mixed:asyncio/looplab", "async_tree_cpu_io_mixed_eager:asyncio/looplab",
            "async_tree_none_eager:eager/lazy", "async_tree_io_eager:eager/lazy",
            "async_tree_memoization_eager:eager/lazy", "async_tree_cpu_io_mixed_eager:eager/lazy",
            "taskgroup_fanout:asyncio/looplab",
            "async_tree_none_tg:asyncio/looplab", "async_tree_io_tg:asyncio/looplab",
            "async_tree_memoization_tg:asyncio/looplab", "async_tree_cpu_io_mixed_tg:asyncio/looplab",
            "async_tree_none_tg:tg/lazy", "async_tree_io_tg:tg/lazy",
            "async_tree_memoization_tg:tg/lazy", "async_tree_cpu_io_mixed_tg:tg/lazy",
            "threadsafe_flood:looplab/libuv", "threadsafe_flood:asyncio/looplab",
            "threadsafe_pingpong_pinned:looplab/libuv",
            "executor_roundtrip_pinned:looplab/libuv"])
        self.assertEqual(rules.async_tree.workload_parts("async_tree_io_eager"), ("io", "eager"))
        self.assertEqual(rules.async_tree.workload_parts("async_tree_io_tg"), ("io", "TaskGroup"))
        self.assertIsNone(rules.async_tree.workload_parts("fanout_cached"))

    def test_checks_expand_workload_by_workload(self):
        specs = policy.parse(TOML).targets
        self.assertEqual([spec.id for spec in specs],
                         ["ping:epoll/floor", "ping:io_uring/epoll", "pong:epoll/floor",
                          "pong:io_uring/epoll", "tcp_echo_1:cpu", "future_resolve:asyncio/looplab"])
        first = specs[0]
        self.assertEqual((first.stage, first.measure, first.op, first.limit), (4, "wall", "<=", 1.1))
        self.assertEqual(first.numerator, policy.Operand("looplab", "epoll"))
        self.assertEqual(first.denominator, policy.Operand("impl", "epoll_floor"))
        self.assertEqual(specs[4].measure, "server_cpu")
        self.assertEqual(specs[5].denominator, policy.Operand("looplab", ""))
        self.assertIsInstance(specs[1].limit, float)

    def test_a_new_stage_adds_a_target_with_data_only(self):
        more = TOML + """
[[targets]]
stage = 7
workloads = ["eager_task"]
checks = [{ name = "asyncio/looplab", ratio = "cpython_asyncio / looplab", goal = "> 50" }]
"""
        spec = policy.parse(more).targets[-1]
        self.assertEqual((spec.id, spec.stage, spec.op, spec.limit),
                         ("eager_task:asyncio/looplab", 7, ">", 50.0))
        results = run_with({"eager_task": {"cpython_asyncio": 6000.0, "looplab_s07": 100.0}})
        target = targets.check_target(spec, results)
        self.assertEqual((target.value, target.met, target.stage), (60.0, True, 7))

    def test_bad_data_is_a_policy_error(self):
        for bad in [TOML.replace('goal = "<= 1.1"', 'goal = "~ 1.1"'),
                    TOML.replace('goal = "<= 1.1"', 'goal = "<=1.1"'),
                    TOML.replace('"looplab:epoll / epoll_floor"', '"looplab:epoll"'),
                    TOML.replace('"looplab:epoll / epoll_floor"', '"looplab:epoll / x:y"'),
                    TOML.replace('measure = "server_cpu"', 'measure = "joules"'),
                    TOML.replace("[coro_echo]", "[coro]"),
                    TOML.replace('["_eager", "eager"]', '["_eager"]'),
                    TOML.replace('"looplab:epoll / epoll_floor"', '"looplab@ / epoll_floor"'),
                    TOML.replace('"looplab:epoll / epoll_floor"', '"looplab@a@b / epoll_floor"'),
                    TOML.replace('goal = "<= 1.1"', 'goal = "same direction as looplab"'),
                    TOML + "[[targets]]\nstage = 9\nworkloads = ['w']\nchecks = [{ name = 'n' }]\n",
                    "this is not = = toml"]:
            with self.subTest(bad=bad[-60:]), self.assertRaises(policy.PolicyError):
                policy.parse(bad)


class CrossWorkloadTargets(unittest.TestCase):
    """Eager against lazy: one implementation on two workloads, and CPython's own
    ratio as the direction to match."""

    TOML = TOML + """
[[targets]]
stage = 7
workloads = ["fan_eager"]
checks = [{ name = "eager/lazy", ratio = "looplab / looplab@fan", goal = "< 1" }]

[[targets]]
stage = 7
workloads = ["tree_io_eager"]
measure = "cpu"
[[targets.checks]]
name = "eager/lazy"
ratio = "looplab / looplab@tree_io"
goal = "same direction as cpython_asyncio / cpython_asyncio@tree_io"
"""

    def setUp(self):
        specs = policy.parse(self.TOML).targets
        self.eager, self.direction = specs[-2], specs[-1]

    def test_parsed(self):
        self.assertEqual(self.eager.denominator, policy.Operand("looplab", "", "fan"))
        self.assertEqual((self.direction.op, self.direction.measure), (policy.SAME_DIRECTION, "cpu"))
        self.assertEqual(self.direction.reference, (policy.Operand("impl", "cpython_asyncio"),
                                                    policy.Operand("impl", "cpython_asyncio", "tree_io")))

    def test_one_implementation_on_two_workloads(self):
        results = run_with({"fan": {"looplab_s07": 200.0}, "fan_eager": {"looplab_s07": 100.0}})
        target = targets.check_target(self.eager, results)
        self.assertEqual((target.value, target.met), (0.5, True))
        self.assertEqual(target.what, "fan_eager: looplab stage 07 / looplab stage 07 on fan")
        del results.ns_per_op["fan"]
        target = targets.check_target(self.eager, results)
        self.assertEqual(target.status, "not measured (looplab stage 07 did not measure fan)")

    def cpu_run(self, figures):
        """Results whose CPU figures are `figures` (and wall times ten times them)."""
        results = run_with({workload: {impl_id: 10 * ns for impl_id, ns in by_impl.items()}
                            for workload, by_impl in figures.items()})
        for workload, by_impl in figures.items():
            results.cpu_ns_per_op[workload] = dict(by_impl)
        return results

    def test_the_same_direction_as_cpython(self):
        results = self.cpu_run({"tree_io": {"looplab_s07": 100.0, "cpython_asyncio": 1000.0},
                                "tree_io_eager": {"looplab_s07": 120.0, "cpython_asyncio": 1100.0}})
        target = targets.check_target(self.direction, results)
        self.assertEqual((target.value, target.reference_value, target.met), (1.2, 1.1, True))
        self.assertTrue(target.what.startswith("tree_io_eager CPU time per op: "))
        self.assertEqual(target.goal, ">\u00a01×, as cpython asyncio: 1.10×")
        self.assertEqual(target.as_json()["reference"], 1.1)
        results.cpu_ns_per_op["tree_io_eager"]["cpython_asyncio"] = 500.0  # eager cheaper in CPython
        target = targets.check_target(self.direction, results)
        self.assertEqual((target.goal, target.status), ("<\u00a01×, as cpython asyncio: 0.50×", "not met"))

    def test_a_direction_without_its_reference_is_not_measured(self):
        results = self.cpu_run({"tree_io": {"looplab_s07": 100.0},
                                "tree_io_eager": {"looplab_s07": 50.0}})
        target = targets.check_target(self.direction, results)
        self.assertEqual((target.value, target.met, target.goal), (0.5, None, "as cpython_asyncio"))
        self.assertEqual(target.status, "not measured (cpython_asyncio did not run)")

    def test_wall_and_cpu_are_separate_measures(self):
        results = run_with({"tree_io": {"looplab_s07": 100.0, "cpython_asyncio": 1000.0},
                            "tree_io_eager": {"looplab_s07": 120.0, "cpython_asyncio": 900.0}})
        target = targets.check_target(self.direction, results)  # no CPU figures at all
        self.assertIsNone(target.met)
        self.assertIn("did not measure tree_io_eager", target.status)


class TaskGroupTargets(unittest.TestCase):
    """Stage 08's goals, from the project's targets.toml: the TaskGroup trees
    against asyncio's, and against the gather() trees as CPython has them."""

    def setUp(self):
        self.specs = {spec.id: spec for spec in policy.load().targets}

    def cpu_run(self, figures):
        """Results whose wall and CPU figures are both `figures`."""
        results = run_with(figures)
        for workload, by_impl in figures.items():
            results.cpu_ns_per_op[workload] = dict(by_impl)
        return results

    def test_stage_08_goals_only_once_stage_08_ran(self):
        results = self.cpu_run({"async_tree_none": {"looplab_s07": 1500.0, "cpython_asyncio": 8000.0}})
        self.assertEqual({target.spec.stage for target in targets.check_targets(results)}, {4, 5, 6, 7})
        looplab(results, 8)
        self.assertEqual({target.spec.stage for target in targets.check_targets(results)}, {4, 5, 6, 7, 8})

    def test_taskgroup_against_gather_in_cpythons_direction(self):
        results = self.cpu_run({
            "async_tree_none": {"looplab_s07": 1500.0, "cpython_asyncio": 8000.0},
            "async_tree_none_tg": {"looplab_s08": 1200.0, "cpython_asyncio": 7200.0}})
        direction = targets.check_target(self.specs["async_tree_none_tg:tg/lazy"], results)
        self.assertEqual((direction.value, direction.reference_value, direction.met), (0.8, 0.9, True))
        self.assertEqual(direction.what, "async_tree_none_tg CPU time per op: looplab stage 08 / "
                                         "looplab stage 07 on async_tree_none")
        self.assertEqual(direction.goal, "<\u00a01×, as cpython asyncio: 0.90×")
        cheaper = targets.check_target(self.specs["async_tree_none_tg:asyncio/looplab"], results)
        self.assertEqual((cheaper.value, cheaper.met), (6.0, False))  # not 30x
        results.cpu_ns_per_op["async_tree_none_tg"]["looplab_s08"] = 1800.0  # a group dearer than gather
        direction = targets.check_target(self.specs["async_tree_none_tg:tg/lazy"], results)
        self.assertEqual((direction.measured, direction.status), ("1.20×", "not met"))

    def test_the_fanout_on_wall_time(self):
        results = run_with({"taskgroup_fanout": {"looplab_s08": 80.0, "cpython_asyncio": 4800.0}})
        target = targets.check_target(self.specs["taskgroup_fanout:asyncio/looplab"], results)
        self.assertEqual((target.value, target.met, target.goal), (60.0, True, "≥\u00a060×"))


class CheckTargets(unittest.TestCase):
    def setUp(self):
        self.specs = policy.parse(TOML).targets

    def check(self, results, spec_id):
        return next(target for target in targets.check_targets(results, self.specs)
                    if target.spec.id == spec_id)

    def test_met_and_not_met(self):
        results = run_with({"ping": {"looplab_s04_epoll": 105.0, "looplab_s04_io_uring": 120.0,
                                     "epoll_floor": 100.0}})
        floor = self.check(results, "ping:epoll/floor")
        self.assertAlmostEqual(floor.value, 1.05)
        self.assertEqual((floor.met, floor.status, floor.stage), (True, "met", 4))
        self.assertEqual(floor.numerator, "looplab_s04_epoll")
        self.assertEqual(floor.what, "ping: looplab stage 04 (epoll) / epoll floor")
        self.assertEqual(floor.goal, "≤\u00a01.1×")
        self.assertEqual(floor.text, "ping: looplab stage 04 (epoll) / epoll floor = 1.05× "
                                     "(target ≤\u00a01.1×): met")
        uring = self.check(results, "ping:io_uring/epoll")
        self.assertEqual((uring.met, uring.status, uring.measured), (False, "not met", "1.14×"))

    def test_bounds_are_inclusive_or_not_as_the_operator_says(self):
        results = run_with({"ping": {"looplab_s04_epoll": 110.0, "epoll_floor": 100.0,
                                     "looplab_s04_io_uring": 110.0}})
        self.assertTrue(self.check(results, "ping:epoll/floor").met)      # <= 1.1, at 1.1
        self.assertTrue(self.check(results, "ping:io_uring/epoll").met)   # <= 1, at 1

    def test_the_latest_stage_that_has_both_rows(self):
        results = run_with({"ping": {"looplab_s04_epoll": 90.0, "looplab_s05_epoll": 95.0,
                                     "epoll_floor": 100.0},
                            "pong": {"looplab_s05_epoll": 1.0}})
        looplab(results, 6)  # ran, but has no epoll row of ping
        self.assertEqual(self.check(results, "ping:epoll/floor").stage, 5)
        # No stage has both: the latest is named.
        pong = self.check(results, "pong:epoll/floor")
        self.assertEqual((pong.stage, pong.value, pong.met), (6, None, None))
        self.assertEqual(pong.status, "not measured (looplab stage 06 (epoll) did not run; "
                                      "epoll floor did not measure pong)")

    def test_missing_data_says_what_is_missing(self):
        results = run_with({"ping": {"looplab_s04_epoll": 90.0}, "other": {"epoll_floor": 1.0}})
        target = self.check(results, "ping:epoll/floor")
        self.assertIsNone(target.met)
        self.assertEqual(target.missing, "epoll floor did not measure ping")
        self.assertEqual(target.measured, "n/a")

    def test_a_zero_figure_is_not_divided_by(self):
        results = run_with({"ping": {"looplab_s04_epoll": 90.0, "epoll_floor": 0.0}})
        target = self.check(results, "ping:epoll/floor")
        self.assertEqual(target.missing, "epoll floor's figure is 0: the run was too short to "
                                         "measure it")

    def test_no_stage_from_the_target_stage_on(self):
        results = run_with({"ping": {"looplab_s04_epoll": 90.0, "epoll_floor": 100.0}})
        future = targets.check_target(self.specs[-1], results)
        self.assertEqual(future.missing, "no looplab stage ≥ 05 ran")
        self.assertEqual(future.denominator_label, "looplab stage ≥ 05")

    def test_only_the_goals_of_the_stages_that_ran(self):
        results = run_with({"ping": {"looplab_s04_epoll": 90.0, "epoll_floor": 100.0}})
        self.assertEqual({target.spec.stage for target in targets.check_targets(results, self.specs)}, {4})
        looplab(results, 5)
        self.assertEqual({target.spec.stage for target in targets.check_targets(results, self.specs)}, {4, 5})

    def test_server_cpu_comes_from_tcp_echo(self):
        results = run_with({"tcp_echo_1": {"looplab_s04_epoll": 9000.0,
                                           "cpython_asyncio_protocol": 20000.0}})
        results.tcp["tcp_echo_1"] = {"looplab_s04_epoll": {"server_cpu_ns_per_request": 2000.0},
                                     "cpython_asyncio_protocol": {"server_cpu_ns_per_request": 7000.0}}
        target = self.check(results, "tcp_echo_1:cpu")
        self.assertEqual((target.value, target.met), (3.5, True))
        self.assertTrue(target.what.startswith("tcp_echo_1 server CPU per request: "))

    def test_no_targets_before_the_first_stage_that_set_one(self):
        results = run_with({"ping": {"looplab_s03": 1.0, "epoll_floor": 1.0}})
        self.assertEqual(targets.check_targets(results, self.specs), [])
        self.assertEqual(targets.check_targets(Results(), self.specs), [])

    def test_as_json(self):
        results = run_with({"future_resolve": {"looplab_s05": 30.0, "cpython_asyncio": 1000.0}})
        data = self.check(results, "future_resolve:asyncio/looplab").as_json()
        self.assertEqual(set(data), {"id", "workload", "measure", "numerator", "denominator",
                                     "value", "op", "limit", "met", "stage", "text"})
        self.assertEqual((data["value"], data["met"], data["stage"], data["limit"]),
                         (33.3333, True, 5, 30.0))

    def test_stage_span(self):
        self.assertEqual(targets.stage_span(self.specs), (4, 5))


if __name__ == "__main__":
    unittest.main()
