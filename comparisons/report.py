#!/usr/bin/env python3
"""Run the C++ benchmarks and their asyncio twins; write the comparison report
(``make report``). The work is the package looplab_report: see its cli module
for what runs and what is written."""
import sys

from looplab_report import cli

if __name__ == "__main__":
    sys.exit(cli.main())
