"""A loop with nothing to do sleeps in its selector, watching only its
self-pipe; a thread's post wakes it, and the callback runs on the loop's
thread, in a Context copied from the posting thread."""
import asyncio
import contextvars
import threading

request_id = contextvars.ContextVar("request_id", default="none")


def main():
    loop = asyncio.new_event_loop()
    result = loop.create_future()

    def callback():
        print(f"on the loop's thread: {threading.current_thread() is threading.main_thread()}")
        print(f"request_id in the callback: {request_id.get()}")
        result.set_result("posted by a thread")

    def worker():
        request_id.set("set by the thread")
        loop.call_soon_threadsafe(callback)

    thread = threading.Thread(target=worker)
    thread.start()
    # Nothing else is scheduled: only the post can wake the loop.
    print(loop.run_until_complete(result))
    thread.join()
    print(f"request_id in the main thread: {request_id.get()}")
    loop.close()


main()
