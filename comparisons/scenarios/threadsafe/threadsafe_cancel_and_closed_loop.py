"""A posted callback cancelled before its turn never runs; a closed loop
refuses posts from any thread with RuntimeError, and drops what was
posted before close() without running it."""
import asyncio
import threading


def in_thread(fn):
    thread = threading.Thread(target=fn)
    thread.start()
    thread.join()


def main():
    loop = asyncio.new_event_loop()
    handles = []
    in_thread(lambda: handles.append(loop.call_soon_threadsafe(print, "never")))
    in_thread(handles[0].cancel)
    loop.call_soon(print, "the turn ran")
    loop.stop()
    loop.run_forever()
    print(f"cancelled() = {handles[0].cancelled()}")

    in_thread(lambda: loop.call_soon_threadsafe(print, "dropped by close()"))
    loop.close()

    def refused():
        try:
            loop.call_soon_threadsafe(print, "never")
        except RuntimeError as error:
            print(f"after close(), from a thread: RuntimeError: {error}")

    in_thread(refused)


main()
