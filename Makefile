# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install demo serve bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# A working site with the demo tournament at http://127.0.0.1:8000
run: install
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py load_demo
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

# The whole test suite (SQLite and eager tasks unless DATABASE_URL / REDIS_URL are set)
test: install
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 $(PYTEST_ARGS)

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
