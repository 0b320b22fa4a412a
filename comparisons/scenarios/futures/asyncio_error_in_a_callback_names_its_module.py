"""A callback that resolves a future twice: the InvalidStateError goes to the
default handler, whose traceback names the type with its module
(asyncio.exceptions.InvalidStateError), and the loop goes on."""
import asyncio


def main():
    loop = asyncio.new_event_loop()
    future = loop.create_future()

    def resolve_twice():
        future.set_result(1)
        print("set_result(1) once")
        future.set_result(2)  # raises: the handler reports it

    loop.call_soon(resolve_twice)
    loop.call_soon(lambda: print(f"next callback: result() = {future.result()}"))
    loop.stop()  # stop() before run_forever(): run exactly one turn
    loop.run_forever()
    print("turn done")
    loop.close()


main()
