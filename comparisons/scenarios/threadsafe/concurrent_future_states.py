"""A concurrent future without any loop: its states, cancel() that works only
while pending, done callbacks in the order they were added (at once once it
is done), and set_running_or_notify_cancel() telling a worker to skip."""
import concurrent.futures


def show(label, future):
    print(f"{label}: running={future.running()} done={future.done()} "
          f"cancelled={future.cancelled()}")


def main():
    future = concurrent.futures.Future()
    show("new", future)
    future.add_done_callback(lambda f: print("callback 1"))
    future.add_done_callback(lambda f: print("callback 2"))
    print(f"set_running_or_notify_cancel(): {future.set_running_or_notify_cancel()}")
    show("running", future)
    print(f"cancel() while running: {future.cancel()}")
    future.set_result(7)
    show("finished", future)
    future.add_done_callback(lambda f: print(f"callback 3, added late: result {f.result()}"))
    print(f"cancel() once finished: {future.cancel()}")

    future = concurrent.futures.Future()
    future.add_done_callback(lambda f: print(f"callback on cancel: cancelled={f.cancelled()}"))
    print(f"cancel() while pending: {future.cancel()}")
    print(f"cancel() again: {future.cancel()}")
    print(f"set_running_or_notify_cancel(): {future.set_running_or_notify_cancel()}")
    show("cancelled", future)
    try:
        future.result()
    except concurrent.futures.CancelledError:
        print("result(): CancelledError")


main()
