# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
MANAGE := $(PY) manage.py
HOST ?= 127.0.0.1
PORT ?= 8000
SERVE_HOST ?= 0.0.0.0
# Test processes (pytest-xdist): one per core; a test file stays in one process.
TEST_WORKERS ?= auto
# Under CI (CI=true) the slowest tests are listed, to keep the run within its budget
# (DURATIONS=0 lists them all, to sum them by file).
DURATIONS ?= 25
PYTEST := $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile $(if $(filter true,$(CI)),--durations=$(DURATIONS))

.PHONY: run serve test test-production test-postgres setup lint format messages bench bench-load check-migrations clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet ".[dev]"
	touch $(STAMP)

setup: $(STAMP)
	mkdir -p var
	$(MANAGE) compilemessages --ignore=.venv -v 0
	$(MANAGE) migrate --noinput -v 0

run: setup
	$(MANAGE) demo_club --if-empty
	@echo "make run is Django's development server, for trying the site on this computer."
	@echo "To serve the phones of a club evening, use: make serve"
	$(MANAGE) runserver $(HOST):$(PORT)

# The club laptop: production settings under granian on $(SERVE_HOST):$(PORT), static files,
# a secret key kept in var/, the same database as `make run`; prints the phones' address.
serve: $(STAMP)
	$(PY) bin/serve.py --bind $(SERVE_HOST) --port $(PORT)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

check-migrations: $(STAMP)
	DJANGO_SETTINGS_MODULE=tarotclub.settings.test $(MANAGE) makemigrations --check --dry-run -v 1

# Refresh the catalogues after changing user-facing strings (then translate the new entries).
messages: $(STAMP)
	$(MANAGE) makemessages -l fr -l nl -l en --ignore=.venv --ignore=var --ignore=artifacts --no-obsolete
	$(MANAGE) compilemessages --ignore=.venv -v 0

test: setup lint check-migrations
	DJANGO_SETTINGS_MODULE=tarotclub.settings.test $(MANAGE) collectstatic --noinput -v 0
	$(PYTEST)

# The suite under the production settings as `make serve` runs them (manifest static files).
test-production: setup
	DJANGO_SETTINGS_MODULE=tarotclub.settings.test_production $(MANAGE) collectstatic --noinput -v 0
	DJANGO_SETTINGS_MODULE=tarotclub.settings.test_production $(PYTEST) -m "not browser" -p no:cacheprovider

# The suite on the database named by DATABASE_URL (e.g. PostgreSQL), without the browser, and
# only the tests that touch a database (TEST_DATABASE_ONLY, conftest.py): the pure ones give the
# same result on any database, and `make test` runs them.
test-postgres: setup
	test -n "$$DATABASE_URL" || (echo "Set DATABASE_URL to a PostgreSQL database"; exit 2)
	TEST_DATABASE_ONLY=1 $(PYTEST) -m "not browser" -p no:cacheprovider

bench: setup
	$(PY) bench/run.py

# Only the load test of `make bench` (bench/load.py): fifty phones in a burst and a club
# evening against the production server on 127.0.0.1, bounded, which stops its server itself
# (on the PostgreSQL of DATABASE_URL when it is set, in a throw-away database).
bench-load: setup
	$(PY) bench/load.py

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache
