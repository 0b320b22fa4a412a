"""context_capture: N callbacks, each with its own copy of the context, each bumping a ContextVar.

`var` is set to 0 in the scheduling context; every callback runs
`var.set(var.get() + 1)` inside the context copied when it was queued, so
each sees 0 and writes 1 into its own copy.  One op = one callback: the
context captured at call_soon and entered when run.  N = 100,000 (10,000
with --quick).
"""
import contextvars
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for gbench
import gbench  # noqa: E402

var = contextvars.ContextVar("var")


def bump():
    var.set(var.get() + 1)


def run_batch(loop, ops):
    var.set(0)
    call_soon = loop.call_soon  # looked up once: we time call_soon, not the lookup
    for _ in range(ops):
        call_soon(bump)
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()


if __name__ == "__main__":
    sys.exit(gbench.main("context_capture", run_batch, ops=100_000, quick_ops=10_000))
