"""Ctrl-C while asyncio.run() runs: the first SIGINT cancels the main task, whose cleanup runs
(and the runner's own cleanup of the tasks left behind), then run() raises KeyboardInterrupt.
A main that takes the cancellation back returns normally. A second SIGINT raises
KeyboardInterrupt at once, out of the loop; the runner's cleanup then cancels main again."""
import asyncio
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def say_at(what):
    print(f"t={asyncio.get_running_loop().time():.3f} {what}")


async def leftover():
    try:
        await asyncio.sleep(100)
    except asyncio.CancelledError:
        say_at("leftover cancelled")
        raise


async def cleans_up():
    asyncio.create_task(leftover())
    signal.raise_signal(signal.SIGINT)  # Ctrl-C
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        say_at("main cancelled, cleaning up")
        await asyncio.sleep(0.5)
        say_at("main cleanup done")
        raise
    return 0


async def takes_it_back():
    signal.raise_signal(signal.SIGINT)
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        say_at("main cancelled, returns 42")
    return 42


async def stubborn():
    signal.raise_signal(signal.SIGINT)
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        say_at("main swallows the first")
    # Ctrl-C again, from a plain callback: KeyboardInterrupt comes out of the loop there.
    # (Raised by main itself, it would come out of main's step in Python, and out of the
    # loop at its next poll in looplab: main would end with it rather than be cancelled.)
    asyncio.get_running_loop().call_soon(signal.raise_signal, signal.SIGINT)
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        say_at("main cancelled by the runner's cleanup")
        raise
    return 0


def run(label, main):
    try:
        with asyncio.Runner(loop_factory=new_virtual_loop) as runner:
            result = runner.run(main())
        print(f"{label}: run() returned {result}")
    except KeyboardInterrupt:
        print(f"{label}: run() raised KeyboardInterrupt")
    print(f"{label}: SIGINT has its default action again: "
          f"{signal.getsignal(signal.SIGINT) is signal.default_int_handler}")


# As a shell without job control may have started us: SIGINT ignored, and Python left it so.
signal.signal(signal.SIGINT, signal.default_int_handler)
run("cleans_up", cleans_up)
run("takes_it_back", takes_it_back)
run("stubborn", stubborn)
