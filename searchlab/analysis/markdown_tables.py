"""Markdown tables for reports: every cell formatted by ``format.number``; an empty or missing
value is written ``n/a``, never an empty cell."""

from __future__ import annotations

from typing import Any, Iterable

from searchlab.analysis.format import NO_DATA, number


def cell(x: Any) -> str:
    """One table cell: a number through ``format.number``, text with ``|`` escaped."""
    return number(x).replace("|", "\\|")


def md_table(header: list[str], rows: Iterable[Iterable[Any]]) -> str:
    """A markdown table (header row, separator, one line per row)."""
    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(cell(x) for x in r) + " |")
    return "\n".join(lines)


__all__ = ["NO_DATA", "cell", "md_table"]
