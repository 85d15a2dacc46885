"""SVG pictures of board positions, for a game's ``_repr_html_`` in a notebook (as
python-chess draws a chess board): plain SVG text, no dependency.

``grid_svg`` draws a rectangular board of cells holding "X", "O" or "." in one of three looks
(tic-tac-toe's marks, Connect Four's discs in a blue frame, Othello's discs on green);
``hex_svg`` draws a Hex rhombus of hexagons with the two players' edges coloured.
"""

from __future__ import annotations

import html
import math
from typing import Sequence

__all__ = ["grid_svg", "hex_svg", "STYLES"]

#: (background, cell fill, line colour, X colour, O colour) per look
STYLES = {
    "tictactoe": ("#ffffff", "#ffffff", "#333333", "#0072B2", "#D55E00"),
    "connect4": ("#0b5394", "#ffffff", "#0b5394", "#D55E00", "#F0E442"),
    "othello": ("#1b7a3e", "#2e8b57", "#0d3d1f", "#111111", "#f5f5f5"),
}


def grid_svg(rows: Sequence[str], style: str, *, cell: int = 36, caption: str = "",
             col_labels: str = "", row_labels: Sequence[str] = ()) -> str:
    """An SVG of ``rows`` (top row first; "X", "O", "." per cell) in the look ``style``
    (a key of :data:`STYLES`), with optional column and row labels and a caption below."""
    if style not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}; got {style!r}")
    bg, fill, line, cx, co = STYLES[style]
    n_rows, n_cols = len(rows), max(len(r) for r in rows)
    left = 16 if row_labels else 0
    top = 16 if col_labels else 0
    w, h = left + n_cols * cell + 2, top + n_rows * cell + 2 + (18 if caption else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect x="{left}" y="{top}" width="{n_cols * cell + 2}" height="{n_rows * cell + 2}" fill="{bg}"/>']
    for j, ch in enumerate(col_labels[:n_cols]):
        out.append(f'<text x="{left + 1 + j * cell + cell / 2}" y="12" text-anchor="middle">{html.escape(ch)}</text>')
    for i, lab in enumerate(list(row_labels)[:n_rows]):
        out.append(f'<text x="8" y="{top + 1 + i * cell + cell / 2 + 4}" text-anchor="middle">{html.escape(lab)}</text>')
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            x, y = left + 1 + j * cell, top + 1 + i * cell
            mx, my, r = x + cell / 2, y + cell / 2, cell * 0.38
            if style == "tictactoe":
                out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                           f'stroke="{line}" stroke-width="1"/>')
                if ch == "X":
                    d = r * 0.75
                    out.append(f'<path d="M{mx - d},{my - d}L{mx + d},{my + d}M{mx + d},{my - d}L{mx - d},{my + d}" '
                               f'stroke="{cx}" stroke-width="3" stroke-linecap="round"/>')
                elif ch == "O":
                    out.append(f'<circle cx="{mx}" cy="{my}" r="{r * 0.8}" fill="none" stroke="{co}" stroke-width="3"/>')
            else:
                if style == "othello":
                    out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                               f'stroke="{line}" stroke-width="1"/>')
                colour = cx if ch == "X" else co if ch == "O" else (fill if style == "connect4" else None)
                if colour is not None:
                    out.append(f'<circle cx="{mx}" cy="{my}" r="{r}" fill="{colour}" stroke="{line}" stroke-width="1"/>')
    if caption:
        out.append(f'<text x="{left}" y="{h - 4}">{html.escape(caption)}</text>')
    out.append("</svg>")
    return "".join(out)


def hex_svg(rows: Sequence[str], *, size: float = 12.0, caption: str = "") -> str:
    """An SVG of a Hex board: ``rows`` top row first, each a string of "X", "O", "." (n x n),
    drawn as a rhombus of pointy-top hexagons; X (red) joins the top and bottom edges, O
    (blue) the left and right edges, drawn as coloured bars along them."""
    n = len(rows)
    wdt = math.sqrt(3) * size
    pad = size * 1.5
    width = pad * 2 + wdt * (n + (n - 1) / 2)
    height = pad * 2 + size * (1.5 * (n - 1) + 2) + (18 if caption else 0)
    red, blue = "#D55E00", "#0072B2"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif" font-size="11">']

    def centre(r: int, c: int) -> tuple[float, float]:
        return pad + wdt / 2 + c * wdt + r * wdt / 2, pad + size + r * 1.5 * size

    def corners(x: float, y: float) -> str:
        return " ".join(f"{x + size * math.cos(math.radians(60 * k - 30)):.1f},"
                        f"{y + size * math.sin(math.radians(60 * k - 30)):.1f}" for k in range(6))

    (x0, y0), (x1, _) = centre(0, 0), centre(0, n - 1)
    (x2, y2), (x3, y3) = centre(n - 1, 0), centre(n - 1, n - 1)
    out.append(f'<line x1="{x0:.1f}" y1="{y0 - size * 1.2:.1f}" x2="{x1:.1f}" y2="{y0 - size * 1.2:.1f}" '
               f'stroke="{red}" stroke-width="4"/>')
    out.append(f'<line x1="{x2:.1f}" y1="{y2 + size * 1.2:.1f}" x2="{x3:.1f}" y2="{y3 + size * 1.2:.1f}" '
               f'stroke="{red}" stroke-width="4"/>')
    out.append(f'<line x1="{x0 - wdt * 0.7:.1f}" y1="{y0:.1f}" x2="{x2 - wdt * 0.7:.1f}" y2="{y2:.1f}" '
               f'stroke="{blue}" stroke-width="4"/>')
    out.append(f'<line x1="{x1 + wdt * 0.7:.1f}" y1="{y0:.1f}" x2="{x3 + wdt * 0.7:.1f}" y2="{y3:.1f}" '
               f'stroke="{blue}" stroke-width="4"/>')
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            x, y = centre(r, c)
            fill = red if ch == "X" else blue if ch == "O" else "#f4f1e8"
            out.append(f'<polygon points="{corners(x, y)}" fill="{fill}" stroke="#555555" stroke-width="1"/>')
    if caption:
        out.append(f'<text x="{pad:.1f}" y="{height - 4:.1f}">{html.escape(caption)}</text>')
    out.append("</svg>")
    return "".join(out)
