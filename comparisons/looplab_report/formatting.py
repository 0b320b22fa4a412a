"""Figures into words: nanoseconds and ratios as the report prints them."""


def format_ns(ns: float) -> str:
    """A time in ns: "1,234" from 100 on, "12.3" from 10, "1.23" below."""
    if ns >= 100:
        return f"{ns:,.0f}"
    if ns >= 10:
        return f"{ns:.1f}"
    return f"{ns:.2f}"


def ratio_text(ratio: float) -> str:
    """baseline time / this time, as "62.3× faster" or "1.4× slower"."""
    if ratio >= 1:
        return f"{ratio:,.0f}× faster" if ratio >= 100 else f"{ratio:.1f}× faster"
    return f"{1 / ratio:.1f}× slower"


def cpu_ratio_text(ratio: float) -> str:
    """baseline CPU / this CPU, as "3.1× less CPU" or "1.2× more CPU"."""
    if ratio >= 1:
        return f"{ratio:,.0f}× less CPU" if ratio >= 100 else f"{ratio:.1f}× less CPU"
    return f"{1 / ratio:.1f}× more CPU"
