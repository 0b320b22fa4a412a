"""CPython 3.13: shutdown_default_executor(timeout) waits at most `timeout`
seconds for the default executor's threads; then it warns, shuts the
executor down without waiting, and returns. The default executor is then
gone for good, and close() does not wait for the call either: it returns
while the call still runs. (3.12 awaits the threads' end whatever the timeout.)"""
import asyncio
import threading

started = threading.Event()
release = threading.Event()


def blocking():
    started.set()
    release.wait()
    print("the call returns")


async def main():
    loop = asyncio.get_running_loop()
    loop.run_in_executor(None, blocking)
    started.wait()
    await loop.shutdown_default_executor(timeout=0.05)
    print("shutdown_default_executor() returned; the call still runs")
    try:
        loop.run_in_executor(None, print, "never")
    except RuntimeError as error:
        print(f"RuntimeError: {error}")


loop = asyncio.new_event_loop()
loop.run_until_complete(main())
loop.close()
print("closed; the call still runs")
release.set()
