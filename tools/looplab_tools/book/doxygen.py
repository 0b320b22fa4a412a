"""The Doxyfile (from book/Doxyfile.in) and the Doxygen run, which must not warn."""
import re
import shutil
import subprocess
import sys

from looplab_tools.book.config import BOOK, ROOT, BookError, rel
from looplab_tools.book.pages import all_pages_in_order
from looplab_tools.book.sources import EXAMPLE_DIRS, stages

DOXYGEN_VERSION = "1.9.4"  # Debian 12's; the Doxyfile and the pages are written for it


def last_stage():
    """The newest stage, whose headers the API reference lists."""
    return list(stages().values())[-1]


def write_doxyfile(pages, edition):
    """book/Doxyfile.in with its @VARIABLES@ filled in, as the edition's Doxyfile."""
    stage = last_stage()
    files = [edition.pages / page.path.relative_to(BOOK) for page in all_pages_in_order(pages)]
    values = {
        "PAGE_FILES": " ".join(f'"{f}"' for f in files),
        "ROOT": str(ROOT),
        "OUT": str(edition.out),
        "PAGES": str(edition.pages),
        "GENERATED": str(edition.generated),
        "EXAMPLE_PATH": " ".join([str(ROOT / top) for top in EXAMPLE_DIRS] + [str(edition.generated)]),
        "API_INCLUDE": str(ROOT / stage.path / "include"),
        "API_STAGE": f"{stage.num} ({stage.title})",
        "FILTER": f"{ROOT / 'tools' / 'assignment'} filter --edition {edition.name}",
        "SOURCE_FILTER": f"{ROOT / 'tools' / 'book'} filter-source --edition {edition.name}",
        "STYLESHEET": str(BOOK / "book.css"),
    }
    template = (BOOK / "Doxyfile.in").read_text()

    def value(match):
        if match.group(1) not in values:
            raise BookError(f"book/Doxyfile.in: unknown variable @{match.group(1)}@")
        return values[match.group(1)]

    doxyfile = edition.out / "Doxyfile"
    doxyfile.write_text(re.sub(r"@([A-Z_]+)@", value, template))
    return doxyfile


def doxygen_version():
    """What `doxygen --version` says."""
    try:
        return subprocess.run(["doxygen", "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        raise BookError("doxygen is not installed: tools/install-deps book") from None


def run_doxygen(doxyfile, edition):
    """Doxygen on `doxyfile`, into the edition's html/; any warning is an error."""
    version = doxygen_version()
    if version.split()[0] != DOXYGEN_VERSION:
        edition.say(f"note: Doxygen {version} found; the book is written for {DOXYGEN_VERSION} (Debian 12's). "
                    "Another version may warn, and a warning fails the build.")
    shutil.rmtree(edition.html, ignore_errors=True)
    edition.say(f"$ doxygen {rel(doxyfile)}")
    result = subprocess.run(["doxygen", str(doxyfile)], cwd=ROOT, capture_output=True, text=True)
    complaints = [line for line in result.stderr.splitlines() if line.strip()]
    for line in complaints:
        print(line, file=sys.stderr)
    if result.returncode != 0 or complaints:
        raise BookError(f"Doxygen reported {len(complaints)} problem(s) (exit status {result.returncode}); "
                        "the book builds with none")
