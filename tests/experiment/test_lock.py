"""One process owns a run directory: a second is refused in one line, a dead owner's lock is
taken over; part names are unique; a process deletes only its own (or dead) temporary files."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from searchlab.experiment import lock, store
from searchlab.experiment.api import RunError, run_study

from .experiment_helpers import ROOT

TINY = ["sweep.b=[2]", "sweep.d=[1,2]", "sweep.instances=2", "sweep.ordering=[random]",
        "runner.n_jobs=1", "runner.progress=false", "runner.report=false"]


def test_a_second_owner_is_refused_and_the_lock_is_released(tmp_path):
    held = lock.acquire(tmp_path / "run")
    try:
        with pytest.raises(lock.RunLockedError, match=rf"is in use by process {os.getpid()} on "):
            lock.acquire(tmp_path / "run")
        assert lock.owner(tmp_path / "run").startswith(f"process {os.getpid()} on ")
    finally:
        held.release()
    assert lock.owner(tmp_path / "run") is None
    lock.acquire(tmp_path / "run").release()


def test_a_run_on_a_directory_in_use_is_refused_and_writes_nothing(tmp_path):
    out = tmp_path / "run"
    held = lock.acquire(out)
    try:
        with pytest.raises(RunError) as e:
            run_study("quick", TINY, output_dir=out, progress=False)
        assert "is in use by process" in str(e.value) and "\n" not in str(e.value)
        assert sorted(p.name for p in out.iterdir()) == [".lock"]
    finally:
        held.release()
    run_study("quick", TINY, output_dir=out, progress=False)        # free again: it runs
    assert len(store.load(out)) == 2 * 2


def test_the_lock_of_a_killed_process_is_taken_over(tmp_path):
    out = tmp_path / "run"
    code = ("import sys, time; from searchlab.experiment import lock; "
            f"lock.acquire({str(out)!r}); print('locked', flush=True); time.sleep(60)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout.readline().strip() == "locked"
        assert lock.owner(out) == lock.describe(lock.record(out)) and lock.record(out)["pid"] == p.pid
        with pytest.raises(lock.RunLockedError):
            lock.acquire(out)
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=10)
    assert lock.owner(out) is None                # a record of a dead process is no lock
    taken = lock.acquire(out)
    try:
        assert taken.previous["pid"] == p.pid
    finally:
        taken.release()


def test_part_names_are_unique_across_writers(tmp_path):
    rows = [{"task_id": "a", "status": "ok"}]
    a, b = store.PartWriter(tmp_path), store.PartWriter(tmp_path)   # both start at part 0
    pa_, pb = a.write(rows), b.write(rows)
    assert pa_ != pb and pa_.name.startswith("part-00000-") and pb.name.startswith("part-00000-")
    assert len(store.list_parts(tmp_path)) == 2


def test_recover_deletes_only_temporary_files_of_dead_processes(tmp_path):
    table = store.table_dir(tmp_path)
    table.mkdir(parents=True)
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    try:
        (table / f".part-00001-0badcafe.parquet.{live.pid}.tmp").write_bytes(b"writing")
        (table / f".part-00002-0badcafe.parquet.{dead.pid}.tmp").write_bytes(b"partial")
        _, msgs = store.recover(tmp_path)
        left = sorted(p.name for p in table.iterdir())
        assert left == [f".part-00001-0badcafe.parquet.{live.pid}.tmp"], left
        assert msgs == [f"removed unfinished temporary file .part-00002-0badcafe.parquet.{dead.pid}.tmp"]
    finally:
        live.kill()
        live.wait()
