"""Shared cases of the compiled-chess tests: the perft data and seeded random games."""

from __future__ import annotations

import csv
import random
import re
from pathlib import Path

import chess

DATA = Path(__file__).resolve().parents[1] / "data" / "chess"


def perft_cases() -> list[tuple[str, str, int, int]]:
    """(name, fen, depth, nodes) for every entry of perftsuite.epd and perft.csv."""
    cases = []
    with open(DATA / "perftsuite.epd") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            fen = line.split(";")[0].strip()
            for d, n in re.findall(r"D(\d+)\s+(\d+)", line):
                cases.append((f"suite{i}", fen, int(d), int(n)))
    with open(DATA / "perft.csv") as f:
        for row in csv.DictReader(f):
            cases.append((row["position"], row["fen"], int(row["depth"]), int(row["nodes"])))
    return cases


def suite_fens() -> list[str]:
    """The distinct positions of perftsuite.epd."""
    return list(dict.fromkeys(fen for name, fen, _, _ in perft_cases() if name.startswith("suite")))


def perft_fens() -> list[str]:
    """The distinct positions of perftsuite.epd and perft.csv (the suite's first)."""
    return list(dict.fromkeys(fen for _, fen, _, _ in perft_cases()))


def random_game(fen: str, seed: int, plies: int) -> list[str]:
    """A seeded random legal game (UCI moves) from fen, at most ``plies`` long."""
    rng = random.Random(seed)
    board = chess.Board(fen)
    line = []
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        board.push(move)
        line.append(move.uci())
    return line
