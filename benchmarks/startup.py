"""How long the ``searchlab`` command takes to answer what runs nothing: --version, --help, a
shell-completion query, --cfg job and the dry run --plan.

    .venv/bin/python benchmarks/startup.py [--repeats 5]

Each command runs ``--repeats`` times as a fresh process (the installed ``searchlab`` script
beside this Python); per command the script prints the median and the best wall seconds and
the median CPU seconds of the child (user + system, from ``os.wait4``: what the other
processes on a shared machine disturb less than wall time), the machine's load average before
and after, and whether the median wall time is under the 1 s target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

#: (name, arguments, extra environment): the completion query is what bash runs at a TAB after
#: `searchlab experiment=` (COMP_LINE and COMP_POINT set by bash)
COMMANDS = [
    ("--version", ["--version"], {}),
    ("--help", ["--help"], {}),
    ("completion query", ["-sc", "query=bash"],
     {"COMP_LINE": "searchlab experiment=", "COMP_POINT": "21"}),
    ("--cfg job", ["--cfg", "job"], {}),
    ("--plan", ["experiment=quick", "--plan"], {}),
]
TARGET = 1.0


def run_once(exe: str, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh process running ``exe args``."""
    t0 = time.perf_counter()
    p = subprocess.Popen([exe, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env={**os.environ, **env})
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{exe} {' '.join(args)} failed (exit {os.waitstatus_to_exitcode(status)})")
    return wall, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5, help="fresh processes per command")
    a = ap.parse_args(argv)
    if a.repeats < 1:
        ap.error(f"--repeats must be >= 1; got {a.repeats}")
    exe = str(Path(sys.executable).with_name("searchlab"))
    if not Path(exe).exists():
        ap.error(f"no searchlab script beside {sys.executable}: install the package first")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'command':<18} {'wall median':>11} {'wall best':>10} {'CPU median':>11}  under {TARGET:g} s")
    for name, args, env in COMMANDS:
        run_once(exe, args, env)            # not counted: the first run fills the OS's file cache
        walls, cpus = zip(*(run_once(exe, args, env) for _ in range(a.repeats)))
        med = statistics.median(walls)
        print(f"{name:<18} {med:>10.3f}s {min(walls):>9.3f}s {statistics.median(cpus):>10.3f}s  "
              f"{'yes' if med < TARGET else 'NO'}")
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
