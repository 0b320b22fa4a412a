"""call_soon(), call_later() and add_done_callback() take context=: the
callback runs in that Context instead of a copy of the caller's."""
import contextvars
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

request_id = contextvars.ContextVar("request_id", default="none")


def show(label):
    print(f"{label}: request_id = {request_id.get()}")


def scenario():
    loop = new_virtual_loop()
    request_id.set("caller")
    given = contextvars.copy_context()
    given.run(request_id.set, "given")
    loop.call_soon(show, "call_soon")
    loop.call_soon(show, "call_soon(context=given)", context=given)
    loop.call_later(1, show, "call_later(context=given)", context=given)
    loop.call_at(loop.time() + 2, show, "call_at(context=given)", context=given)
    future = loop.create_future()
    future.add_done_callback(lambda f: show("done callback"))
    future.add_done_callback(lambda f: show("done callback(context=given)"), context=given)
    loop.call_later(3, future.set_result, None)
    loop.run_until_complete(future)
    loop.close()


scenario()
