"""bench/cpu.py: the CPU a run's parts spent, as bench/load.py and bench/cluster.py read it."""

from __future__ import annotations

import shutil

import pytest
from django.db import connection

from bench import cpu


def test_a_backend_gone_during_the_run_takes_nothing_off_it():
    # The previous server's connection (pid 1) closes during the run; pid 3 opens in it.
    readings = iter([{1: 5.0, 2: 3.0}, {2: 3.5, 3: 0.25}])
    meter = cpu.Meter(postgresql=lambda: next(readings))
    meter.start()
    assert meter.stop() == {"postgresql": pytest.approx(0.75)}


def test_a_part_read_as_a_number_is_its_difference():
    readings = iter([2.0, 2.5])
    meter = cpu.Meter(site=lambda: next(readings))
    meter.start()
    assert meter.stop() == {"site": pytest.approx(0.5)}


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql" or not shutil.which("psql"),
                    reason="PostgreSQL's backends, read through psql on this machine")
def test_backends_are_read_by_pid_for_one_database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid(), current_database()")
        pid, database = cursor.fetchone()
    read = cpu.backends(database)
    assert pid in read
    assert read[pid] >= 0
    assert cpu.backends("no_such_database") == {}
