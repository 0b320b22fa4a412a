"""@TESTS(NN)@: the test groups chapter NN adds, their unit test files and
scenario twins, and the ctest commands that run them."""
import re

from looplab_tools.book.config import ROOT
from looplab_tools.book.describe import docstring_summary, first_comment, first_docstring_line, md_cell
from looplab_tools.book.sources import groups_since, stages


def no_unit_tests(group, stage):
    """A group with no *_test.cpp (the differential tester): what its runner does."""
    runners = sorted((ROOT / "tests" / group).glob("*.py"))
    text = (f"The group `{group}` (since stage {stage.num}; `features.toml`) has no unit "
            f"test file")
    if not runners:
        return text + f"; `ctest --preset dev -L feature_{group}` runs what it has."
    runner = runners[0]
    what = docstring_summary(runner)
    return (text + f": CTest runs `tests/{group}/{runner.name}` against each stage from {stage.num} on "
            f"(`ctest --preset dev -L feature_{group}`)." + (f" {what}" if what else ""))


def generate_tests(edition):
    """{number: Markdown} for @TESTS(NN)@."""
    fragments = {}
    for number, stage in stages().items():
        out = []
        for group in groups_since(number):
            units = sorted((ROOT / "tests" / group).glob("*_test.cpp"))
            scenarios = sorted((ROOT / "tests" / "scenarios" / group).glob("*.cpp"))
            count = sum(len(re.findall(r"^TEST(?:_F)?\(", u.read_text(), re.M)) for u in units)
            if units:
                out += [f"The group `{group}` (since stage {stage.num}; `features.toml`) has "
                        f"{count} unit tests in {len(units)} files under `tests/{group}/`: "
                        + ", ".join(f"`{u.name}`" for u in units) + "."]
            else:
                out += [no_unit_tests(group, stage)]
            if scenarios:
                out += ["", f"And {len(scenarios)} scenario twins: each is a C++ program in "
                        f"`tests/scenarios/{group}/` and a Python program of the same name in "
                        f"`comparisons/scenarios/{group}/`; both must print the `// expect:` lines "
                        "of the C++ file, so CPython decides what is right.", "",
                        "| scenario | what it shows |", "|---|---|"]
                for scenario in scenarios:
                    twin = ROOT / "comparisons" / "scenarios" / group / (scenario.stem + ".py")
                    what = first_docstring_line(twin) if twin.is_file() else first_comment(scenario)
                    out += [f"| `{scenario.stem}` | {md_cell(what)} |"]
            out += [""]
        if not out:
            out = [f"Chapter {number} adds no test group; the earlier groups still run against it.", ""]
        out += ["```sh",
                "cmake --preset dev && cmake --build --preset dev",
                f"ctest --preset dev -L stage{stage.num}      # everything that runs against stage {stage.num}",
                f"ctest --preset dev -L since{stage.num}      # only what chapter {stage.number} adds",
                f"build/dev/bin/scenarios_s{stage.num} --list  # the scenario twins, runnable by name",
                "```"]
        fragments[number] = "\n".join(out)
        (edition.generated / f"tests_{number:02d}.md").write_text(fragments[number] + "\n")
    return fragments
