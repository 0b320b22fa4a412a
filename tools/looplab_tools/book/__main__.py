"""python3 -m looplab_tools.book: the book tool (tools/book is its launcher)."""
import sys

from looplab_tools.book.cli import main

sys.exit(main())
