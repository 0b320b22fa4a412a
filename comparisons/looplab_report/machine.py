"""The machine and the build: CPU, memory, CMake's cache, a program's first line."""
from __future__ import annotations

import os
import platform
import re
import subprocess
from pathlib import Path
from typing import Optional


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def memory_total() -> str:
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemTotal:"):
                    return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return "unknown"


def cpu_count() -> str:
    total = os.cpu_count() or 0
    if hasattr(os, "sched_getaffinity"):
        usable = len(os.sched_getaffinity(0))
        if usable != total:
            return f"{total} ({usable} usable by this process)"
    return str(total)


def read_cmake_cache(build_dir: Path) -> dict[str, str]:
    """NAME -> value for every entry of <build-dir>/CMakeCache.txt (empty if none)."""
    entries = {}
    try:
        text = (build_dir / "CMakeCache.txt").read_text(errors="replace")
    except OSError:
        return entries
    for line in text.splitlines():
        match = re.match(r"^([A-Za-z_][\w.+-]*):[A-Z_]+=(.*)$", line)
        if match:
            entries[match[1]] = match[2]
    return entries


def first_line_of(command: list[str]) -> Optional[str]:
    """The first line a command prints, or None if it fails or prints nothing."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = result.stdout.strip().splitlines()
    return lines[0] if result.returncode == 0 and lines else None
