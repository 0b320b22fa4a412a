"""A callback posted from another thread that raises goes to the loop's
exception handler, like any callback, and the loop goes on: the next
posted callback runs in the same turn."""
import asyncio
import threading


def handler(loop, context):
    words = context["message"].split()[:3]
    error = context["exception"]
    print(f"handler: {' '.join(words)} ...: {type(error).__name__}: {error}")


def fail():
    raise ValueError("posted and failed")


def main():
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(handler)

    def worker():
        loop.call_soon_threadsafe(fail)
        loop.call_soon_threadsafe(print, "the next posted callback runs")
        loop.call_soon_threadsafe(loop.stop)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    loop.run_forever()
    loop.close()


main()
