"""An asyncio event loop on a virtual clock that jumps to the next deadline.

Why this exists: from stage 02 on the C++ scenarios run their loop on
``looplab::VirtualClock``, which starts at zero and, whenever the loop would
sleep until a timer is due, moves straight to that deadline (trio's MockClock
with autojump). Under that clock "t=0.250" is exact and a one-hour timer costs
no time. The Python twins must print the same times, so they run CPython's own
asyncio loop, unchanged, on the same kind of clock:

* ``loop.time()`` returns the virtual time, 0.0 when the loop is made;
* when ``_run_once`` asks the selector to wait ``timeout > 0`` seconds, the
  selector first really polls with timeout 0 (so sockets, stage 03, still
  work); if nothing is ready, it moves the virtual time forward by ``timeout``
  and reports no events: the loop wakes exactly at its next deadline;
* with ``timeout=None`` (no timer, nothing ready) and nothing registered
  except the loop's own self-pipe, nothing could ever wake the loop, so
  instead of hanging the selector raises ``VirtualClockError`` ("would block
  forever"). If other file objects are registered it really blocks on them.
* ``_clock_resolution`` keeps its real value (1e-9 on Linux), so "a timer is
  due if ``when < time() + resolution``" behaves as on the real clock (the C++
  VirtualClock's resolution is 1 ns too).

Everything else (the heap, lazy cancellation, the ready queue, the order of a
pass) is CPython's code, which is what the twins are there to show.

The selector is ``selectors.SelectSelector`` on every OS, so the loop behaves
the same everywhere. Use it from a twin in any group folder::

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from virtual_clock import new_virtual_loop

A twin that needs two equal deadlines should use ``call_at`` with one float
value for both, not two sums of floats that may round differently.
"""
import asyncio
import selectors


class VirtualClockError(RuntimeError):
    """The loop asked to wait for ever and nothing could ever wake it."""


class VirtualClock:
    """Seconds as a float, starting at 0.0; moves only when advanced."""

    def __init__(self):
        self.now = 0.0

    def advance(self, seconds):
        self.now += seconds


class AutojumpSelector(selectors.SelectSelector):
    """A select() selector whose waits move a VirtualClock instead of sleeping."""

    def __init__(self, clock):
        super().__init__()
        self.clock = clock
        self.idle_fds = frozenset()  # set by new_virtual_loop(): the self-pipe

    def select(self, timeout=None):
        if timeout is not None and not timeout >= 0:
            # NaN: not modelled; let the real selector decide what happens.
            return super().select(timeout)
        ready = super().select(0)  # a real poll: I/O that is ready now wins
        if ready or timeout == 0:
            return ready
        if timeout is None:
            if set(self.get_map()) <= self.idle_fds:
                raise VirtualClockError(
                    "virtual clock: the loop would block forever "
                    "(no timer, nothing ready, no file object registered)")
            return super().select(None)  # real I/O could still wake it
        self.clock.advance(timeout)  # sleep: jump straight to the deadline
        return []


class VirtualClockEventLoop(asyncio.SelectorEventLoop):
    """CPython's selector loop, reading the time from a VirtualClock."""

    def __init__(self):
        self.virtual_clock = VirtualClock()
        selector = AutojumpSelector(self.virtual_clock)
        super().__init__(selector)
        # What the loop registered for itself (its self-pipe) cannot wake it
        # from within a single-threaded scenario.
        selector.idle_fds = frozenset(selector.get_map())

    def time(self):
        return self.virtual_clock.now


def new_virtual_loop():
    """A new asyncio loop whose time starts at 0.0 and jumps to each deadline."""
    return VirtualClockEventLoop()
