"""CPU time spent by the parts of a run, read from ``/proc`` (Linux): a process and all its
descendants (a gunicorn master and its workers, a Celery worker and its pool), and PostgreSQL's
backends connected to one database. Taken around each wrk run and divided by the requests
answered, it gives the CPU a request costs each part — a figure that moves far less with the
machine's other load than requests per second do."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds) of ``pid``, or None when it has gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()   # after the command's name, which may hold spaces
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK


def tree(pid: int) -> float:
    """CPU seconds of ``pid`` and every descendant alive now."""
    parents: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            got = _stat(int(entry.name))
            if got:
                parents.setdefault(got[0], []).append(int(entry.name))
                cpu[int(entry.name)] = got[1]
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += cpu.get(p, 0.0)
        todo += parents.get(p, [])
    return total


def backends(database: str) -> dict[int, float]:
    """CPU seconds of each PostgreSQL backend connected to ``database`` now, by pid (from
    ``pg_stat_activity``; readable when PostgreSQL runs on this machine as this user or root).
    By pid, not summed: a backend that exits during a run (the previous server's connections
    closing) must not take its whole life's CPU off the run's figure."""
    out = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-tAc",
                          f"SELECT pid FROM pg_stat_activity WHERE datname = '{database}'"],  # noqa: S608
                         capture_output=True, text=True).stdout
    return {int(p): got[1] for p in out.split() if (got := _stat(int(p)))}


class Meter:
    """CPU seconds of named parts, read at ``start()`` and ``stop()``: ``parts`` maps a name to a
    function giving that part's CPU seconds now, as a number or by process (a dict by pid: the
    processes alive at ``stop()`` count, each from its reading at ``start()``, or from 0 when it
    started since)."""

    def __init__(self, **parts) -> None:
        self.parts, self.before = parts, {}

    def start(self) -> None:
        self.before = {name: read() for name, read in self.parts.items()}

    def stop(self) -> dict[str, float]:
        return {name: spent(read(), self.before[name]) for name, read in self.parts.items()}


def spent(now: float | dict[int, float], before: float | dict[int, float]) -> float:
    if isinstance(now, dict):
        return sum(cpu - before.get(pid, 0.0) for pid, cpu in now.items())
    return now - before
