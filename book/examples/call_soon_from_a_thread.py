"""A thread hands a sleeping asyncio loop a callback, first with call_soon(),
then with call_soon_threadsafe(), then with call_soon() in debug mode.
Chapter 9 of the looplab book; run it:

    python3 book/examples/call_soon_from_a_thread.py

The loop's only timer is due after half a second, so it sleeps in its
selector that long unless something wakes it.
"""
import asyncio
import threading
import time

TIMER = 0.5  # seconds until the loop's one timer is due


def post_from_a_thread(method, debug=False):
    loop = asyncio.new_event_loop()
    loop.set_debug(debug)
    loop.call_later(TIMER, loop.stop)
    posted_at = []

    def callback():
        waited = time.monotonic() - posted_at[0]
        print("  the callback ran " + ("only when the timer woke the loop" if waited > TIMER / 2
                                       else "at once"))

    def worker():
        time.sleep(0.05)  # the loop is asleep in select() by now
        posted_at.append(time.monotonic())
        try:
            getattr(loop, method)(callback)
        except RuntimeError as error:
            print(f"  {method}() raised RuntimeError: {error}")

    print(f"{method}() from a thread{', debug mode' if debug else ''}:")
    thread = threading.Thread(target=worker)
    thread.start()
    loop.run_forever()
    thread.join()
    loop.close()


post_from_a_thread("call_soon")             # no byte: the loop sleeps on, till the timer
post_from_a_thread("call_soon_threadsafe")  # a byte to the self-pipe wakes it at once
post_from_a_thread("call_soon", debug=True)
