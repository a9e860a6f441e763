# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install demo serve bench clean messages

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
	DEBUG=1 $(BIN)/python manage.py makemessages -l zh_Hans -l zh_Hant --no-obsolete --ignore=$(VENV) --ignore=node_modules

install: $(STAMP) $(MO)

# A working site with the demo tournament at http://127.0.0.1:8000. On the club's local network
# (phones scanning the tables' QR codes): `make run HOST=0.0.0.0` — any host name is then
# accepted unless ALLOWED_HOSTS names the computer's address (e.g. ALLOWED_HOSTS=192.168.1.20).
HOST ?= 127.0.0.1
PORT ?= 8000
ifneq ($(HOST),127.0.0.1)
ALLOWED_HOSTS ?= *
export ALLOWED_HOSTS
endif

run: install
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py load_demo
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

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

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
