"""@SCENARIO(group/name)@: one scenario twin on a page, both halves and what they print.

A scenario exists twice, tests/scenarios/<group>/<name>.cpp and its CPython
twin comparisons/scenarios/<group>/<name>.py, and CTest holds both to the C++
file's `// expect:` lines (comparisons/check_scenario.py). The placeholder,
alone on its line, shows the pair where a chapter tells its story: both
programs pulled in whole with \\include (so nothing is pasted: the code is the
code CTest runs), then the lines both print, written at build time from those
directives into generated/scenario_<group>_<name>.txt and shown with
\\verbinclude. Where the two runs differ on purpose (`expect-cpp:`,
`expect-cpython:`), one file per side: ..._cpp.txt and ..._cpython.txt.
"""
import re
from dataclasses import dataclass
from pathlib import Path

from check_scenario import ScenarioError, parse_expectations
from looplab_tools.book.config import ROOT
from looplab_tools.book.describe import first_docstring_line

# Any text that looks like the placeholder, well formed or not.
ANY_SCENARIO = re.compile(r"@SCENARIO\([^)\n]*\)@")
# The well-formed placeholder: a group and a scenario name.
SCENARIO = re.compile(r"^@SCENARIO\(([a-z0-9_]+)/([a-z0-9_]+)\)@$")


@dataclass(frozen=True)
class Scenario:
    """The scenario group/name, in the tree at `root`."""
    group: str
    name: str
    root: Path = ROOT

    @property
    def key(self):
        return f"{self.group}/{self.name}"

    @property
    def cpp(self):
        return self.root / "tests" / "scenarios" / self.group / f"{self.name}.cpp"

    @property
    def python(self):
        return self.root / "comparisons" / "scenarios" / self.group / f"{self.name}.py"

    def rel(self, path):
        return str(path.relative_to(self.root))


def placeholders(text, root=ROOT):
    """[(line number, Scenario or None, the placeholder's text)] of the
    placeholders in a page's documentation (code spans and code blocks are not
    read); None when it is malformed or not alone on its line."""
    from looplab_tools.book.pages import doc_lines  # pages imports this module
    found = []
    for number, line in doc_lines(text):
        for match in ANY_SCENARIO.finditer(line):
            well_formed = SCENARIO.match(line.strip())
            scenario = Scenario(well_formed.group(1), well_formed.group(2), root) if well_formed else None
            found.append((number, scenario, match.group(0)))
    return found


def problems(scenario):
    """What keeps a scenario from being shown (empty: nothing)."""
    found = []
    if not scenario.cpp.is_file():
        found.append(f"no C++ program {scenario.rel(scenario.cpp)}")
    if not scenario.python.is_file():
        found.append(f"no CPython twin {scenario.rel(scenario.python)}")
    if scenario.cpp.is_file():
        try:
            parse_expectations(scenario.cpp)
        except ScenarioError as error:
            found.append(str(error))
    return found


def lint_scenarios(pages, errors, root=ROOT):
    """Every @SCENARIO(group/name)@ of every page is alone on its line and
    names a scenario with both programs and its `// expect:` lines."""
    for page in pages.values():
        for number, scenario, text in placeholders(page.text, root):
            where = f"{page.name}:{number}: {text}"
            if scenario is None:
                errors.append(f"{where}: write @SCENARIO(group/name)@ alone on its line, with a "
                              "group folder and a scenario name of tests/scenarios/")
                continue
            errors += [f"{where}: {problem}" for problem in problems(scenario)]


def outputs(scenario):
    """({file name: text} of the expected output, the stderr expectations):
    one file when both runs print the same lines, else one per run."""
    expected = parse_expectations(scenario.cpp)
    base = f"scenario_{scenario.group}_{scenario.name}"
    lines = expected.stdout
    if lines["cpp"] == lines["cpython"]:
        files = {f"{base}.txt": lines["cpp"]}
    else:
        files = {f"{base}_{side}.txt": lines[side] for side in ("cpp", "cpython")}
    return {name: "".join(line + "\n" for line in text) for name, text in files.items()}, \
        expected.stderr_contains


def fragment(scenario, generated):
    """The Markdown that replaces @SCENARIO(group/name)@; writes the expected
    output into the folder `generated`."""
    generated.mkdir(parents=True, exist_ok=True)
    files, stderr = outputs(scenario)
    for name, text in files.items():
        (generated / name).write_text(text)
    what = first_docstring_line(scenario.python)
    cpp_name = f"scenarios/{scenario.group}/{scenario.name}.cpp"    # under tests/
    py_name = f"scenarios/{scenario.group}/{scenario.name}.py"      # under comparisons/
    out = [f"**Scenario `{scenario.name}`**" + (f": {what}" if what else ""), "",
           f"The C++ program, `{scenario.rel(scenario.cpp)}`, carries the lines it must print as "
           "`// expect:` comments:", "",
           f"\\include {cpp_name}", "",
           f"Its CPython twin, `{scenario.rel(scenario.python)}`, runs on CPython's own asyncio:", "",
           f"\\include {py_name}", ""]
    if "virtual_clock" in scenario.python.read_text():
        out += ["(The twin's loop is CPython's, unchanged, on a virtual clock that jumps to the next "
                "deadline instead of sleeping: `comparisons/scenarios/virtual_clock.py`.)", ""]
    if len(files) == 1:
        out += ["What both print (CTest runs each and compares its output with the `// expect:` lines):",
                "", f"\\verbinclude {next(iter(files))}", ""]
    else:
        for name in files:
            side = "the C++ program" if name.endswith("_cpp.txt") else "the CPython twin"
            out += [f"What {side} prints (the two differ here on purpose; the C++ file says why):",
                    "", f"\\verbinclude {name}", ""]
    if stderr:
        out += ["Both must also write, on standard error: " + ", ".join(f"`{text}`" for text in stderr)
                + ".", ""]
    return "\n".join(out).rstrip("\n")


def replace_scenarios(text, fragments):
    """`text` with each line that is a placeholder (outside code) replaced by
    its fragment (fragments: {group/name: Markdown})."""
    targets = {number: scenario.key for number, scenario, _ in placeholders(text) if scenario is not None}
    lines = text.splitlines(keepends=True)
    for number, key in targets.items():
        ending = "\n" if lines[number - 1].endswith("\n") else ""
        lines[number - 1] = fragments[key] + ending
    return "".join(lines)


def generate_scenarios(pages, edition, root=ROOT):
    """{group/name: Markdown} for every @SCENARIO(group/name)@ of the pages,
    the expected output written into the edition's generated/ folder."""
    fragments = {}
    for page in pages.values():
        for _, scenario, _ in placeholders(page.text, root):
            if scenario is not None and scenario.key not in fragments:
                fragments[scenario.key] = fragment(scenario, edition.generated)
    return fragments
