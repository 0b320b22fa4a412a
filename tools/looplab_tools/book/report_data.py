"""What the book reads from the benchmark report (build/report, `make report`):
its figures (summary.json), its implementations (implementations.json), its
header (header.json) and its charts."""
import json
import shutil
from dataclasses import dataclass
from pathlib import Path


def report_header(report_dir):
    """{label: value} of the report's header (date, machine, mode, ...), which
    the report writes to header.json (an object, or [label, value] pairs); {}
    if there is none."""
    path = report_dir / "header.json"
    return dict(json.loads(path.read_text())) if path.is_file() else {}


@dataclass
class ReportData:
    """What the benchmark fragments read from build/report."""
    report_dir: Path
    summary: dict
    impls: dict
    header: dict
    charts_out: Path
    reference: bool = False  # the committed reference report, not one of this machine

    def label(self, impl_id):
        """How the report names an implementation."""
        return self.impls.get(impl_id, {}).get("label", impl_id)

    def chart(self, name, caption):
        """The report's chart `name`.svg copied where Doxygen finds images, as an
        \\image line; [] if the report has no such chart."""
        chart = self.report_dir / "charts" / f"{name}.svg"
        if not chart.is_file():
            return []
        target = self.charts_out / f"bench_{name}.svg"
        shutil.copyfile(chart, target)
        return ["", f'\\image html {target.name} "{caption}"']


def read_report(report_dir, charts_out, reference=False):
    """The report in `report_dir`, whose charts the fragments copy to
    `charts_out`; None if it has no summary.json and implementations.json."""
    summary_path, impls_path = report_dir / "summary.json", report_dir / "implementations.json"
    if not (summary_path.is_file() and impls_path.is_file()):
        return None
    return ReportData(report_dir, json.loads(summary_path.read_text()), json.loads(impls_path.read_text()),
                      report_header(report_dir), charts_out, reference)


def read_report_or_reference(report_dir, reference_dir, charts_out):
    """This machine's report if there is one, else the reference report
    committed with the book; None if neither exists."""
    return (read_report(report_dir, charts_out)
            or read_report(reference_dir, charts_out, reference=True))
