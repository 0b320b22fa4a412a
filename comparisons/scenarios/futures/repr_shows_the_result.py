"""repr() of a future that finished with a value shows it as reprlib.repr() does (result=...):
numbers, True/False, None for no value, quoted strings shortened once the quoted text passes
30 characters (an escape counts as its characters, also that of a character
Python does not print; characters, not bytes)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for virtual_clock
from virtual_clock import new_virtual_loop  # noqa: E402


def finished_with(loop, value):
    future = loop.create_future()
    future.set_result(value)
    return repr(future)


def main():
    loop = new_virtual_loop()
    # None twice: C++'s Future<void>, then Future<std::monostate>.
    for value in (42, -7, 2**63 - 1, True, None, None, "hi", "it's", "x" * 29,
                  "abcdefghijklmnopqrstuvwxyz0123456789", "\u00e9" * 15, "\u00e9" * 40, "\x00" * 10,
                  "nbsp\u00a0here", "\u00a0" * 10,
                  1.0, 0.1, -2.5, 1e16, 1e-05, 0.0001, 123.456, 1 / 3, float("inf"), float("nan")):
        print(finished_with(loop, value))
    pending = loop.create_future()
    print(repr(pending))
    pending.cancel()
    print(repr(pending))
    loop.close()


main()
