"""Headless Chromium, run on a fresh profile, retried when it hangs."""
import os
import shutil
import signal
import subprocess
import tempfile

from looplab_tools.book.config import BookError

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars",
                  # Let the page's scripts (the tree view, the search box) finish before the
                  # DOM is dumped or the screenshot taken.
                  "--run-all-compositor-stages-before-draw", "--virtual-time-budget=5000"]


def chromium():
    """The Chromium program."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise BookError("chromium is not installed: tools/install-deps book")


def chromium_run(args, edition, timeout=60, attempts=3):
    """Run headless Chromium on a fresh profile; its stdout. On a loaded machine
    Chromium now and then never finishes a page: such a run is retried."""
    for attempt in range(1, attempts + 1):
        with tempfile.TemporaryDirectory(prefix="looplab-chromium-", ignore_cleanup_errors=True) as profile:
            command = [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args]
            # Its own process group, so that a hung run is ended with all its helpers.
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True, start_new_session=True)
            try:
                out, err = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
                edition.say(f"chromium did not finish in {timeout} s (attempt {attempt} of {attempts})")
                continue
        if process.returncode != 0:
            raise BookError(f"chromium failed (exit status {process.returncode}):\n{err[-2000:]}")
        return out
    raise BookError(f"chromium did not finish in {timeout} s, {attempts} times: {' '.join(command)}")
