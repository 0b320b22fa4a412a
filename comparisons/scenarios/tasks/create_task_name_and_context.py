"""create_task(coro, name=..., context=...): a named task keeps its name (and
takes no number: the next unnamed task gets the next one), and a task made
with context= runs its steps in that Context instead of a copy of the
caller's."""
import asyncio
import contextvars
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402

request_id = contextvars.ContextVar("request_id", default="none")


def run_turns(loop, count):
    for _ in range(count):
        loop.stop()  # stop() before run_forever(): exactly one turn
        loop.run_forever()


async def show(label):
    print(f"{label}: name = {asyncio.current_task().get_name()}, request_id = {request_id.get()}")


def scenario():
    loop = new_virtual_loop()
    request_id.set("main")
    loop.create_task(show("first"))
    loop.create_task(show("second"), name="fetcher")
    other = contextvars.copy_context()
    other.run(request_id.set, "from the given context")
    loop.create_task(show("third"), context=other)
    loop.create_task(show("fourth"))
    run_turns(loop, 1)
    loop.close()


scenario()
