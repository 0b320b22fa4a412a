"""asyncio.run() and Ctrl-C: the first SIGINT cancels main (its cleanup runs) and run() raises
KeyboardInterrupt, unless main swallowed the cancellation; a second SIGINT raises
KeyboardInterrupt; a program that ignores SIGINT keeps ignoring it. Afterwards SIGINT has its
default action again."""
import asyncio
import signal


async def reraises():
    signal.raise_signal(signal.SIGINT)
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        print("main: CancelledError, cleaning up")
        raise
    return 1


async def swallows():
    signal.raise_signal(signal.SIGINT)
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        print("main: CancelledError, swallowed")
    return 2


async def twice():
    signal.raise_signal(signal.SIGINT)
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        print("main: CancelledError, cleaning up slowly")
        signal.raise_signal(signal.SIGINT)
        await asyncio.sleep(1)
        print("main: never")
    return 3


async def ignored():
    signal.raise_signal(signal.SIGINT)
    await asyncio.sleep(0)
    print("main: not interrupted")
    return 4


def run(name, main):
    try:
        print(f"{name}: run() -> {asyncio.run(main())}")
    except KeyboardInterrupt:
        print(f"{name}: run() raised KeyboardInterrupt")
    is_default = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    print(f"{name}: SIGINT has its default action: {is_default}")


def scenario():
    saved = signal.signal(signal.SIGINT, signal.default_int_handler)  # as a program starts
    run("reraises", reraises)
    run("swallows", swallows)
    run("twice", twice)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    run("ignored", ignored)
    print(f"ignored: SIGINT still ignored: {signal.getsignal(signal.SIGINT) is signal.SIG_IGN}")
    signal.signal(signal.SIGINT, saved)


scenario()
