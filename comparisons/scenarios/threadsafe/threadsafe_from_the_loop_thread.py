"""call_soon_threadsafe() from the loop's own thread is call_soon(): the
callback runs in the next turn, in order with the others."""
import asyncio


def main():
    loop = asyncio.new_event_loop()
    turn = [1]

    def first():
        print(f"turn {turn[0]}: posting X, then call_soon(Y)")
        loop.call_soon_threadsafe(lambda: print(f"turn {turn[0]}: X"))
        loop.call_soon(lambda: print(f"turn {turn[0]}: Y"))

    loop.call_soon(first)
    while turn[0] <= 2:
        loop.stop()  # one turn
        loop.run_forever()
        turn[0] += 1
    loop.close()


main()
