"""Three threads post five callbacks each: every callback runs exactly once,
and each thread's callbacks run in the order that thread posted them (how
the threads interleave is up to the scheduler, so only each thread's own
order is printed)."""
import asyncio
import threading


def main():
    loop = asyncio.new_event_loop()
    seen = {thread: [] for thread in range(3)}

    def post(thread):
        for i in range(5):
            loop.call_soon_threadsafe(seen[thread].append, i)

    threads = [threading.Thread(target=post, args=(t,)) for t in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    loop.call_soon(loop.stop)
    loop.run_forever()
    for thread in range(3):
        print(f"thread {thread}: {seen[thread]}")
    loop.close()


main()
