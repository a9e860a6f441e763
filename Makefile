# The commands of the README: `make run` (a quick local trial), `make test`, and `make club` (a club
# night on the local network).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run club test install bench clean messages guide-screenshots restore-drill cluster cluster-stop

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The translations: the .po files are committed, their .mo files built here (compilemessages needs
# GNU gettext's msgfmt: Debian's `gettext` package, which .ci/run installs when it is missing).
PO := $(wildcard locale/*/LC_MESSAGES/django.po)
MO := $(PO:.po=.mo)

locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po | $(STAMP)
	DEBUG=1 $(BIN)/python manage.py compilemessages --locale $* --ignore=$(VENV) --ignore=node_modules

# After editing the templates or code: refresh the .po files (then translate the new entries).
messages: $(STAMP)
	DEBUG=1 $(BIN)/python manage.py makemessages -l zh_Hans -l zh_Hant -l ko --no-obsolete --ignore=$(VENV) --ignore=node_modules

install: $(STAMP) $(MO)

# A quick local trial: uvicorn serving gupai_site.asgi (the pages and the live events stream;
# reloading on code changes; static files by WhiteNoise, DEBUG on) with the demo tournament, on this
# computer only, at http://127.0.0.1:8000 (`make run PORT=8311`: another port, in the demo's
# printed links too). For the club's network, `make club` below.
PORT ?= 8000

run: install
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py load_demo --base-url http://127.0.0.1:$(PORT)
	DEBUG=1 $(BIN)/python -m uvicorn gupai_site.asgi:application --host 127.0.0.1 --port $(PORT) --reload \
	    --reload-dir games --reload-dir scoring --reload-dir gupai_site --no-access-log

# A club night on the local network (phones scan the tables' QR codes), served as in production:
# gunicorn with gupai_site/gunicorn.conf.py, DEBUG off, static files collected, a secret key kept
# in .club/, the computer's LAN address found once and kept there (SITE_URL: scorer links and QR
# codes use it, and only that host is accepted), the club's database migrated (no demo), and a
# Celery worker and beat when Redis answers at REDIS_URL. All in scripts/club.py.
club: install
	$(BIN)/python scripts/club.py --port $(PORT)

# axe-core for the accessibility test (tests/browser/test_accessibility.py), pinned in
# package-lock.json; installed again only when missing or when the lock is newer.
node_modules/axe-core/axe.min.js: package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# The whole test suite (SQLite and eager tasks unless DATABASE_URL / REDIS_URL are set)
test: install node_modules/axe-core/axe.min.js
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

bench: install
	$(BIN)/python bench/engine.py

# The screenshots of docs/director-guide.md, made again by the browser test that walks its
# evening (tests/browser/test_director_guide.py) and written to docs/screenshots/guide/.
guide-screenshots: install
	GUIDE_SCREENSHOTS=1 $(BIN)/python -m pytest -p no:cacheprovider -n 0 tests/browser/test_director_guide.py

# .club/ (a club night's key, address and database, `make club`) is never removed here.
clean:
	rm -rf $(VENV) db.sqlite3 staticfiles

# The latest backup (BACKUP_DIR, written by `manage.py backup` and nightly by Celery beat) restored
# into a scratch database, the replay audit of every tournament run over it, the scratch database
# dropped; fails when the restore or any audit does (docs/reliability.md, Backups).
restore-drill: install
	$(BIN)/python manage.py restore_drill

# The production topology rehearsed on this machine (docs/install.md, "A cluster on one machine"):
# haproxy on 127.0.0.1:8080 in front of two web nodes (8001, 8002), PgBouncer (6432) in front of
# the PostgreSQL at 127.0.0.1:5432, a streaming replica of it (5433), Celery workers by queue and
# beat on the Redis at REDIS_URL (default 127.0.0.1:6379); all of it under .cluster/. Waits until
# haproxy answers /readyz, prints the addresses; run again, it starts only what is not running.
# cluster-stop stops it all and removes the replica (PostgreSQL and Redis go on running).
cluster: install
	$(BIN)/python scripts/cluster.py start

cluster-stop:
	$(BIN)/python scripts/cluster.py stop
