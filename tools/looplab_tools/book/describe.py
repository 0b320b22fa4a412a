"""What a file says about itself, on one line, for the generated tables: its
opening comment, its docstring, a benchmark's comment."""
import re


def describe_file(path):
    """The first sentence of a file's opening `// name: what it is` comment."""
    first = path.read_text(errors="replace").splitlines()[:1]
    match = re.match(r"^(?://|#)\s*[\w./-]+:\s*(.+)$", first[0]) if first else None
    if not match:
        return ""
    sentence = re.split(r"(?<=[.:;])\s", match.group(1).strip())[0].rstrip(".:;")
    return sentence


def md_cell(text):
    """`text` safe in a Markdown table cell."""
    return text.replace("|", "\\|")


def first_docstring_line(path):
    """The first paragraph of a Python file's docstring, on one line, without a
    leading `name:` (a docstring's first sentence may wrap onto a second line)."""
    match = re.search(r'^\s*"""(.*?)"""', path.read_text(), re.S | re.M)
    if not match:
        return ""
    text = " ".join(match.group(1).strip().split("\n\n")[0].split())
    return re.sub(r"^\w+:\s*", "", text)


def benchmark_comment(text, name):
    """The first sentence of the `// name: ...` comment block that describes a benchmark."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = re.match(rf"^//\s*{re.escape(name)}:\s*(.*)$", line)
        if not match:
            continue
        words = [match.group(1)]
        for more in lines[i + 1:]:
            if not more.startswith("//") or not more[2:].strip():
                break  # the end of the comment, or of its first paragraph
            words.append(more[2:].strip())
        comment = " ".join(w for w in words if w)
        # The first sentence; "O(1). select() ..." ends one too.
        return re.split(r"(?<=\.)\s+(?=[A-Z])|(?<=\)\.)\s+", comment)[0].rstrip(".").rstrip(":")
    return ""


def first_comment(path):
    """The `//` comment lines that open a C++ file, on one line."""
    lines = []
    for line in path.read_text().splitlines():
        if not line.startswith("//"):
            break
        lines.append(line[2:].strip())
    return " ".join(lines)


def docstring_summary(path):
    """The opening of a Python file's docstring: its first paragraph without the
    `name:` prefix or, when that is only a title, the first sentence after it."""
    match = re.search(r'^\s*"""(.*?)"""', path.read_text(), re.S | re.M)
    if not match:
        return ""
    paragraphs = [" ".join(p.split()) for p in match.group(1).strip().split("\n\n") if p.strip()]
    first = re.sub(r"^[\w.-]+:\s*", "", paragraphs[0]) if paragraphs else ""
    if len(first) < 60 and len(paragraphs) > 1:
        first = re.split(r"(?<=\.)\s+(?=[A-Z])", paragraphs[1])[0]
    return first
