"""Where the book's sources and outputs are, and the edition a command works on."""
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BOOK = ROOT / "book"
# The answer keys of the exercises: for instructors, never a page of the book.
ANSWER_KEYS = BOOK / "assignments" / "answers"
ANSWER_KEY_TITLE = "Answer key: chapter"  # how each of them starts
# Two editions from the same sources: the reader's shows the solutions; the
# course edition shows each region a student writes as the student's task.
EDITIONS = {"reader": ROOT / "build" / "book", "course": ROOT / "build" / "book-course"}
DEMO_BUILD = ROOT / "build" / "book-demos"
RELEASE_BUILD = ROOT / "build" / "release"  # make report's
REPORT = ROOT / "build" / "report"
# The reference report committed with the book (`make reference-report`):
# its figures fill the benchmark sections when no local report exists.
REFERENCE_REPORT = ROOT / "book" / "reference-report"


class BookError(Exception):
    """The build cannot go on; the message says why."""


@dataclass(frozen=True)
class Edition:
    """One edition of the book and its own output folder: every command works
    on one, and everything it writes goes under `out`."""
    name: str   # "reader" or "course"
    out: Path

    @property
    def generated(self):
        return self.out / "generated"

    @property
    def pages(self):
        return self.out / "src"

    @property
    def html(self):
        return self.out / "html"

    @property
    def screenshots(self):
        return self.out / "screenshots"

    def say(self, text):
        print(f"book: {text}" if self.name == "reader" else f"book ({self.name} edition): {text}", flush=True)


def edition(name="reader"):
    """The edition `name`, with its output folder (EDITIONS)."""
    return Edition(name, EDITIONS[name])


def rel(path):
    """`path` relative to the repository, as the messages name files."""
    try:
        return str(Path(path).relative_to(ROOT))
    except ValueError:
        return str(path)
