"""``make club`` (scripts/club.py): what it runs and with which settings, and the real thing
serving a page on a free port."""

from __future__ import annotations

import http.client
import os
import re
import shlex
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time

import club
import pytest

from .conftest import SCRIPTS

ROOT = SCRIPTS.parent
LAN = "192.168.1.20"


def make_plan(tmp_path, environ=None, *, detect=lambda: LAN, redis=False, port=8000):
    return club.plan(tmp_path / "club", port, dict(environ or {}), detect=detect, redis_check=lambda url: redis)


def test_gunicorn_with_its_configuration_and_debug_off(tmp_path):
    p = make_plan(tmp_path)
    assert p.server[1:] == ["-m", "gunicorn", "-c", "gupai_site/gunicorn.conf.py", "gupai_site.asgi:application"]
    assert p.env["DEBUG"] == "0"
    assert p.url == p.env["SITE_URL"] == f"http://{LAN}:8000"
    assert p.env["ALLOWED_HOSTS"] == LAN and p.env["GUNICORN_BIND"] == "0.0.0.0:8000"
    # plain http on the club's network
    assert (p.env["SECURE_SSL_REDIRECT"], p.env["SECURE_COOKIES"], p.env["SECURE_HSTS_SECONDS"]) == ("0", "0", "0")
    assert p.env["DATABASE_URL"] == f"sqlite:///{tmp_path / 'club' / 'club.sqlite3'}"


def test_static_files_collected_migrations_applied_and_no_demo(tmp_path):
    p = make_plan(tmp_path)
    commands = [" ".join(step[1:]) for step in p.steps]
    assert commands == ["manage.py collectstatic --noinput --verbosity 0", "manage.py migrate --noinput",
                        "manage.py createcachetable"]
    assert make_plan(tmp_path, {"REDIS_URL": "redis://127.0.0.1:6379/0"}, redis=True).steps == p.steps[:2]
    assert not any("load_demo" in " ".join(cmd) for cmd in [*p.steps, *p.services, p.server])


def test_the_secret_key_is_made_once_and_kept_private(tmp_path):
    key = make_plan(tmp_path).env["SECRET_KEY"]
    path = tmp_path / "club" / "secret_key"
    assert len(key) >= 50 and path.read_text().strip() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert make_plan(tmp_path).env["SECRET_KEY"] == key
    assert make_plan(tmp_path / "elsewhere").env["SECRET_KEY"] != key


def test_the_address_is_found_once_and_kept(tmp_path):
    first = make_plan(tmp_path)
    assert (tmp_path / "club" / "site_url").read_text().strip() == first.url
    # A later run keeps it, whatever the detection would say now (printed QR codes carry it).
    assert make_plan(tmp_path, detect=lambda: "10.0.0.9", port=9000).url == first.url
    # SITE_URL from the environment wins, and is kept for the next runs.
    given = make_plan(tmp_path, {"SITE_URL": "http://club.example:8080/"})
    assert given.url == "http://club.example:8080" and given.env["ALLOWED_HOSTS"] == "club.example"
    assert given.env["GUNICORN_BIND"] == "0.0.0.0:8080"
    assert make_plan(tmp_path).url == "http://club.example:8080"
    with pytest.raises(SystemExit, match="SITE_URL"):  # refused before it is kept
        make_plan(tmp_path, {"SITE_URL": "192.168.1.30:8000"})
    assert make_plan(tmp_path).url == "http://club.example:8080"


def test_a_loopback_address_is_pointed_out(tmp_path):
    p = make_plan(tmp_path, detect=lambda: "127.0.0.1")
    assert p.env["ALLOWED_HOSTS"] == "127.0.0.1"
    assert any("phones cannot open the links" in note for note in p.notes)


def test_celery_worker_and_beat_run_beside_only_when_redis_answers(tmp_path):
    redis_url = "redis://:s3cret@127.0.0.1:6379/0"
    with_redis = make_plan(tmp_path, {"REDIS_URL": redis_url}, redis=True)
    assert [cmd[1:6] for cmd in with_redis.services] == [["-m", "celery", "-A", "gupai_site", "worker"]] * 2 + [
        ["-m", "celery", "-A", "gupai_site", "beat"]]
    # every queue read (gupai_site/queues.py)
    assert [cmd[cmd.index("-Q") + 1] for cmd in with_redis.services[:2]] == ["celery,ratings,audits", "documents"]
    assert with_redis.env["REDIS_URL"] == redis_url
    silent = make_plan(tmp_path, {"REDIS_URL": redis_url}, redis=False)
    assert silent.services == [] and "REDIS_URL" not in silent.env  # tasks run in-process
    assert any("Redis does not answer at 127.0.0.1:6379" in note for note in silent.notes)
    assert not any("s3cret" in note for note in [*with_redis.notes, *silent.notes])  # the notes are printed
    assert make_plan(tmp_path).services == []


#: One process's failed logins for one account from one address (``throttling.login_failed``).
_FAIL_LOGINS = """
import os, sys, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gupai_site.settings")
django.setup()
from django.test import RequestFactory
from scoring.web import throttling
request = RequestFactory().post("/director/login/")
for _ in range(int(sys.argv[1])):
    throttling.login_failed(request, "dora", "10.0.0.7")
try:
    throttling.login_check(request, "dora", "10.0.0.7")
except throttling.Limited:
    print("limited")
else:
    print("allowed")
"""


def _clean_environ() -> dict:
    return {k: v for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SITE_URL",
                         "CACHE_IN_DATABASE") and not k.startswith(("PYTEST", "DJANGO_"))}


def test_without_redis_every_process_counts_the_same_limits(tmp_path):
    """gunicorn's workers without Redis: a guesser's failures count once, whichever worker they
    reach (each worker's memory counted its own: 39 wrong passwords were checked, allowance 10),
    and two workers counting at the same moment lose none."""
    p = make_plan(tmp_path, _clean_environ())
    assert p.env["CACHE_IN_DATABASE"] == "1"
    cache_table = next(step for step in p.steps if "createcachetable" in step)
    subprocess.run(cache_table, cwd=ROOT, env=p.env, check=True, timeout=120)

    def fail(times: int) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", _FAIL_LOGINS, str(times)], cwd=ROOT, env=p.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    # the allowance: 10 failures for one account from one address (throttling.RATES)
    workers = [fail(5), fail(5)]   # each alone under it, together at it (none lost)
    answers = [w.communicate(timeout=120) for w in workers]
    assert all(w.returncode == 0 for w in workers), answers
    assert fail(0).communicate(timeout=120)[0].strip() == "limited"
    with sqlite3.connect(tmp_path / "club" / "club.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM gupai_cache").fetchone()[0] >= 3   # the three login counts


def test_the_banner_says_where_the_director_goes_and_how_to_create_one(tmp_path):
    text = club.banner(make_plan(tmp_path))
    assert f"http://{LAN}:8000/director/" in text
    assert club.CREATE_DIRECTOR in text.splitlines()[text.splitlines().index("  Create a director (once, in another terminal):") + 1]


def _forms(text: str) -> list[str]:
    """Each line's command that creates a director, from its interpreter to its password."""
    return re.findall(r"[^\s`>]*python[^\n`<]*?create_director[^\n`<]*?PASS\b", text)


@pytest.mark.django_db
def test_one_way_to_create_a_director_in_the_readme_the_banner_the_login_page_and_the_guide(tmp_path, client):
    """How a club gets its director is said in one form, and the same one, wherever it is said."""
    page = client.get("/director/login/")
    assert page.status_code == 200
    places = {"README.md": (ROOT / "README.md").read_text(encoding="utf-8"),
              "the make club banner": club.banner(make_plan(tmp_path)),
              "the login page": page.content.decode(),
              "docs/director-guide.md": (ROOT / "docs" / "director-guide.md").read_text(encoding="utf-8")}
    for where, text in places.items():
        assert _forms(text), f"{where} does not say how to create a director"
        assert set(_forms(text)) == {club.CREATE_DIRECTOR}, (where, _forms(text))
    assert club.CREATE_DIRECTOR.startswith(".venv/bin/python scripts/club.py manage create_director ")
    hans = client.get("/director/login/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "在运行本站的电脑上创建一个" in hans and _forms(hans) == [club.CREATE_DIRECTOR]  # the words translated, not the command


def test_the_form_shown_creates_a_director_in_the_clubs_database(tmp_path):
    """The form as shown (its interpreter aside: the tree's .venv may be elsewhere), run against a
    club folder: the director lands in the database ``make club`` serves, not in db.sqlite3."""
    folder = tmp_path / "club"
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SITE_URL")
           and not k.startswith(("PYTEST", "DJANGO_"))}
    env["SITE_URL"] = "http://192.168.1.20:8000"
    python, script, *args = shlex.split(club.CREATE_DIRECTOR)
    assert (python, script) == (".venv/bin/python", "scripts/club.py")
    args = [{"NAME": "dora", "PASS": "dora-secret-1"}.get(a, a) for a in args]

    def run(*words: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, script, "--dir", str(folder), *words], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)

    assert run("manage", "migrate", "--noinput").returncode == 0  # what make club does first
    done = run(*args)
    assert done.returncode == 0 and "Director dora created." in done.stdout, done.stdout + done.stderr
    with sqlite3.connect(folder / "club.sqlite3") as db:
        assert db.execute("SELECT is_staff, password != '' FROM auth_user WHERE username = 'dora'").fetchall() == [
            (1, 1)]


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_make_club_runs_the_script_and_make_run_stays_on_loopback():
    def dry_run(target: str) -> str:
        return subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True,
                              timeout=60).stdout

    assert ".venv/bin/python scripts/club.py --port 8000" in dry_run("club").splitlines()
    run = dry_run("run")
    assert "uvicorn gupai_site.asgi:application --host 127.0.0.1 --port 8000" in run and "0.0.0.0" not in run and "ALLOWED_HOSTS" not in run


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_make_run_prints_the_demos_links_with_its_port():
    run = subprocess.run(["make", "-n", "run", "PORT=8311"], cwd=ROOT, capture_output=True, text=True, check=True,
                         timeout=60).stdout
    assert "load_demo --base-url http://127.0.0.1:8311" in run
    assert "--host 127.0.0.1 --port 8311" in run and "8000" not in run


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port: int, path: str, host: str) -> tuple[int, dict, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": host})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode("utf-8", "replace")
    finally:
        conn.close()


def test_the_club_site_serves_its_address_only(tmp_path):
    """The script itself, as ``make club`` runs it: migrations, collectstatic, gunicorn."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SITE_URL")
           and not k.startswith(("PYTEST", "DJANGO_"))}
    env.update(SITE_URL=f"http://127.0.0.1:{port}", STATIC_ROOT=str(tmp_path / "static"), GUNICORN_WORKERS="1")
    log = open(tmp_path / "club.log", "w")
    proc = subprocess.Popen([sys.executable, str(SCRIPTS / "club.py"), "--dir", str(tmp_path / "club")], cwd=ROOT,
                            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                status, headers, page = _get(port, "/", f"127.0.0.1:{port}")
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "club.log").read_text()
                time.sleep(0.5)
        assert status == 200 and "Director login" in page
        css = f"/static/css/site.{page.split('/static/css/site.')[1].split('.css')[0]}.css"  # the hashed file
        assert _get(port, css, f"127.0.0.1:{port}")[0] == 200
        assert _get(port, "/", "evil.example")[0] == 400  # a forged Host
        status, _, page = _get(port, "/no/such/page/", f"127.0.0.1:{port}")
        assert status == 404 and "URLconf" not in page and "Traceback" not in page  # DEBUG off
        assert "Gupai Club on the local network" in (tmp_path / "club.log").read_text()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
        log.close()


def test_redis_that_does_not_answer_is_no_redis():
    started = time.monotonic()
    assert club.redis_answers("") is False
    assert club.redis_answers(f"redis://127.0.0.1:{_free_port()}/0") is False  # nothing listens there
    assert time.monotonic() - started < 5


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_make_guide_screenshots_runs_the_guides_walk_writing_into_docs():
    """docs/development.md and the guide name this command: it runs the walk with its screenshots kept."""
    run = subprocess.run(["make", "-n", "guide-screenshots"], cwd=ROOT, capture_output=True, text=True, check=True,
                         timeout=60).stdout
    assert "GUIDE_SCREENSHOTS=1" in run and "tests/browser/test_director_guide.py" in run


def test_the_database_is_kept_for_every_terminal(tmp_path):
    """``DATABASE_URL`` given to ``make club`` is kept in ``.club/database_url``: ``club.py
    manage`` in another terminal, without the variable, uses the same database."""
    path = tmp_path / "club" / "database_url"
    sqlite = f"sqlite:///{tmp_path / 'club' / 'club.sqlite3'}"
    assert make_plan(tmp_path).env["DATABASE_URL"] == sqlite and path.read_text().strip() == sqlite
    served = make_plan(tmp_path, {"DATABASE_URL": "postgres://club:pw@127.0.0.1:5432/club"}).env["DATABASE_URL"]
    assert served == "postgres://club:pw@127.0.0.1:5432/club" and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert make_plan(tmp_path).env["DATABASE_URL"] == served   # another terminal, no variable
    path.unlink()
    assert make_plan(tmp_path).env["DATABASE_URL"] == sqlite   # forgotten: the club's own file again


def test_a_director_created_in_another_terminal_lands_in_the_database_served(tmp_path):
    """``make club`` run with ``DATABASE_URL`` (a file elsewhere), then the documented form of
    creating a director run in a terminal without it: the director is in the served database."""
    folder, served = tmp_path / "club", tmp_path / "served.sqlite3"
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SITE_URL")
           and not k.startswith(("PYTEST", "DJANGO_"))}
    env["SITE_URL"] = "http://192.168.1.20:8000"

    def run(*words: str, **extra) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "scripts/club.py", "--dir", str(folder), *words], cwd=ROOT,
                              env={**env, **extra}, capture_output=True, text=True, timeout=300)

    assert run("manage", "migrate", "--noinput", DATABASE_URL=f"sqlite:///{served}").returncode == 0
    done = run("manage", "create_director", "erin", "--password", "erin-secret-1")
    assert done.returncode == 0, done.stdout + done.stderr
    with sqlite3.connect(served) as db:
        assert db.execute("SELECT username FROM auth_user").fetchall() == [("erin",)]
    assert not (folder / "club.sqlite3").exists()
