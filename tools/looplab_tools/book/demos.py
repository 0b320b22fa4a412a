"""The demos' output: every stage's demo built in build/book-demos and run, its
output saved for the chapter's \\verbinclude demo_sNN.txt."""
import subprocess

from looplab_tools.book.config import DEMO_BUILD, ROOT, BookError, rel
from looplab_tools.book.sources import stages


def run(command, edition, **kwargs):
    """Run `command` in the repository, saying so; a failure is a BookError."""
    edition.say("$ " + " ".join(str(c) for c in command))
    result = subprocess.run([str(c) for c in command], cwd=ROOT, **kwargs)
    if result.returncode != 0:
        raise BookError(f"`{' '.join(str(c) for c in command)}` failed with exit status {result.returncode}")
    return result


def build_demos(edition):
    """Build every stage's demo in build/book-demos and save what it prints
    in the edition's generated/ folder."""
    run(["nice", "cmake", "-S", ".", "-B", rel(DEMO_BUILD), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
         "-DLOOPLAB_BUILD_TESTS=OFF", "-DLOOPLAB_BUILD_BENCH=OFF"], edition, stdout=subprocess.DEVNULL)
    run(["nice", "cmake", "--build", rel(DEMO_BUILD)], edition)
    for number in stages():
        demo = DEMO_BUILD / "bin" / f"demo_s{number:02d}"
        if not demo.is_file():
            continue
        try:
            result = subprocess.run(["nice", str(demo)], cwd=ROOT, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise BookError(f"{rel(demo)} did not finish in 120 s") from None
        if result.returncode != 0:
            raise BookError(f"{rel(demo)} exited with status {result.returncode}:\n{result.stderr}")
        out = edition.generated / f"demo_s{number:02d}.txt"
        out.write_text(result.stdout)
        edition.say(f"{rel(demo)} -> {rel(out)} ({len(result.stdout.splitlines())} lines)")
