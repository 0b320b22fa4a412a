"""ThreadPoolExecutor.shutdown(cancel_futures=True) cancels what is still
queued; the running call finishes. Without it, shutdown(wait=True) lets the
queue drain first. A concurrent future's result() waits for the worker."""
import concurrent.futures
import threading

started = threading.Event()
release = threading.Event()


def blocking():
    started.set()
    release.wait()
    return "running call"


executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
running = executor.submit(blocking)
started.wait()
queued = [executor.submit(str.upper, name) for name in ("a", "b")]
executor.shutdown(wait=False, cancel_futures=True)
print(f"queued cancelled: {[future.cancelled() for future in queued]}")
print(f"running: {running.running()}")
release.set()
print(f"running.result(): {running.result()}")

executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
futures = [executor.submit(str.upper, name) for name in ("c", "d", "e")]
executor.shutdown(wait=True)
print(f"without cancel_futures: {[future.result() for future in futures]}")
