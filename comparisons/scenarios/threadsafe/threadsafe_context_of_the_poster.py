"""call_soon_threadsafe() copies the posting thread's Context when it is
called, as call_soon() does on the loop's thread: the callback sees the
thread's values, not the loop thread's; with context=ctx it runs in ctx."""
import asyncio
import contextvars
import threading

request_id = contextvars.ContextVar("request_id", default="none")


def show(label):
    print(f"{label}: request_id = {request_id.get()}")


def main():
    loop = asyncio.new_event_loop()
    request_id.set("loop thread")
    chosen = contextvars.Context()
    chosen.run(request_id.set, "chosen context")

    def worker():
        request_id.set("worker")
        loop.call_soon_threadsafe(show, "posted by the worker")
        request_id.set("worker, later")
        loop.call_soon_threadsafe(show, "posted with context=chosen", context=chosen)
        loop.call_soon_threadsafe(loop.stop)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    loop.run_forever()
    show("the loop thread afterwards")
    loop.close()


main()
