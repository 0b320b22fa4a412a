"""A tiny event loop: a ready queue, a heap of timers, and tasks that drive
coroutines with send(None). Chapter 0 of the looplab book; run it:

    python3 book/examples/tiny_loop.py
"""
import collections
import heapq
import itertools
import time


class TinyLoop:
    def __init__(self):
        self.ready = collections.deque()  # callbacks to run now
        self.timers = []                  # a heap of (when, tie-breaker, callback)
        self.counter = itertools.count()
        self.start = time.monotonic()

    def time(self):
        return time.monotonic() - self.start

    def call_soon(self, callback):
        self.ready.append(callback)

    def call_later(self, delay, callback):
        heapq.heappush(self.timers, (self.time() + delay, next(self.counter), callback))

    def run_once(self):
        """One turn: sleep until something can run, queue the due timers,
        run what was queued when the turn began (and only that)."""
        if not self.ready and self.timers:
            time.sleep(max(0.0, self.timers[0][0] - self.time()))  # the only place it waits
        while self.timers and self.timers[0][0] <= self.time():
            self.ready.append(heapq.heappop(self.timers)[2])
        for _ in range(len(self.ready)):
            self.ready.popleft()()

    def run(self):
        while self.ready or self.timers:
            self.run_once()


class Sleep:
    """What a coroutine awaits to wait: it hands the delay up to its task."""

    def __init__(self, delay):
        self.delay = delay

    def __await__(self):
        yield self  # travels up through every await, out of send(), to the task


class Task:
    """A coroutine cut into callbacks: each step runs it to its next await."""

    def __init__(self, loop, coro):
        self.loop, self.coro = loop, coro
        loop.call_soon(self.step)

    def step(self):
        try:
            sleep = self.coro.send(None)  # run the coroutine until it awaits
        except StopIteration:
            return                        # it returned: the task is done
        self.loop.call_later(sleep.delay, self.step)  # wake me when the sleep is over


async def worker(name, delay, steps):
    for step in range(steps):
        print(f"t={loop.time():.1f}s  {name} step {step}")
        await Sleep(delay)


loop = TinyLoop()
Task(loop, worker("A", 0.2, 3))
Task(loop, worker("B", 0.3, 2))
Task(loop, worker("C", 0.1, 4))
loop.run()
print(f"t={loop.time():.1f}s  done: 1.6 s of sleeping in all, on one thread")
