"""A loop with nothing to do but a timer an hour away sleeps in its
selector; another thread's call_soon_threadsafe() wakes it at once, and a
posted loop.stop() ends run_forever() long before the timer is due."""
import asyncio
import threading


def main():
    loop = asyncio.new_event_loop()
    timer = loop.call_later(3600, print, "the timer (never: it is an hour away)")

    def worker():
        loop.call_soon_threadsafe(print, "posted by the thread")
        loop.call_soon_threadsafe(loop.stop)

    thread = threading.Thread(target=worker)
    loop.call_soon(thread.start)
    loop.run_forever()
    thread.join()
    print(f"run_forever() returned; the timer is still pending: {not timer.cancelled()}")
    timer.cancel()
    loop.close()


main()
