"""The command line: tools/book lint | build | check-browser | filter-source."""
import argparse
import sys
from pathlib import Path

import looplab_tools.book as book_package
from looplab_tools.book.browser import check_browser
from looplab_tools.book.build import build
from looplab_tools.book.config import EDITIONS, REPORT, BookError, edition
from looplab_tools.book.lint import lint
from looplab_tools.book.sources import source_listing


def main(argv=None):
    """Run one command; the exit status."""
    parser = argparse.ArgumentParser(prog="tools/book", description=book_package.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("lint", help="check the snippet markers and references")
    p = sub.add_parser("build", help="build the book into build/book/html (the course edition: "
                       "build/book-course/html)")
    p.add_argument("--edition", choices=sorted(EDITIONS), default="reader")
    p.add_argument("--report-dir", type=Path, default=REPORT,
                   help="the benchmark report to take figures from (default: build/report)")
    p.add_argument("--no-demos", action="store_true",
                   help="reuse the demo outputs already in build/book/generated")
    p = sub.add_parser("check-browser", help="check the built pages in headless Chromium")
    p.add_argument("--edition", choices=sorted(EDITIONS), default="reader")
    p = sub.add_parser("filter-source", help="print a source as the API reference lists it "
                       "(Doxygen's source filter)")
    p.add_argument("--edition", choices=sorted(EDITIONS), default="reader")
    p.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    chosen = edition(getattr(args, "edition", "reader"))
    try:
        if args.command == "lint":
            return 0 if lint(chosen) else 1
        if args.command == "build":
            build(chosen, args.report_dir.resolve(), demos=not args.no_demos)
        elif args.command == "check-browser":
            check_browser(chosen)
        elif args.command == "filter-source":
            sys.stdout.write(source_listing(args.file.read_text(errors="replace"), chosen, str(args.file)))
        return 0
    except BookError as error:
        print(f"book: {error}", file=sys.stderr)
        return 1
