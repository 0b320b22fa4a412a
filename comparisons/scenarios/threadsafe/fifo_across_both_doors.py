"""Posts from any thread and call_soon() share one FIFO: asyncio appends a
posted callback to the ready queue at once, so what was posted before a
call_soon() runs before it, whichever thread posted it."""
import asyncio
import threading


def main():
    loop = asyncio.new_event_loop()
    loop.call_soon_threadsafe(print, "A (posted by the main thread)")
    loop.call_soon(print, "B (call_soon)")
    loop.call_soon_threadsafe(print, "C (posted by the main thread)")

    def worker():
        for i in range(3):
            loop.call_soon_threadsafe(print, f"T{i} (posted by a thread)")

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    loop.call_soon(print, "D (call_soon)")
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()
    loop.close()


main()
