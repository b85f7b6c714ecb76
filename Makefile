# Two commands: `make run` (set up everything and run the app with its worker) and
# `make test` (set up and run the whole suite). Only Python 3.11+ is needed beforehand.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The web port: `make run PORT=8080`. Exported, so the demo prints the URLs of the port the
# Procfile's web process serves (honcho hands the first process $PORT).
PORT ?= 8000
export PORT

.PHONY: run test setup migrate demo lint format contract clean bench faults

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

setup: $(STAMP)

migrate: setup
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py demo

# A home game is production for its players: gunicorn and WhiteNoise (gunicorn.conf.py), no
# debug pages (TOURNEY_HOME_GAME=1, tourney/settings.py). DJANGO_DEBUG=1 make run for debug pages.
run: demo
	@echo "Starting web (http://127.0.0.1:$(PORT), gunicorn), Celery worker and beat. Ctrl-C stops all."
	TOURNEY_HOME_GAME=1 $(VENV)/bin/honcho start -f Procfile -p $(PORT)

# Two test processes by default (pytest-xdist; TEST_JOBS=0 runs in one), a test file a process
# (--dist loadfile): the tests that start a Celery worker, all in tests/tasks/test_worker.py, run
# one at a time, as two workers on one broker would take each other's ETA ticks.
TEST_JOBS ?= 2

test: setup
	$(PY) -m pytest -n $(TEST_JOBS) --dist loadfile $(PYTEST_ARGS)

# The fault-injection run (tests/faults): gunicorn with two workers, two Celery workers and beat
# on a scratch PostgreSQL database (created and dropped) and Redis, SIGKILLed and restarted while
# eight desks register through the API; what they saw is then checked against the database.
# Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust; FAULTS_PG_URL otherwise) and Redis on
# 127.0.0.1:6379 (FAULTS_REDIS_URL). It restarts PostgreSQL: never beside other tests using it.
# FAULTS_SEED=n picks other moments for the faults.
faults: setup
	RUN_FAULTS=1 $(PY) -m pytest -p no:xdist -p no:cacheprovider -s -m faults tests/faults $(PYTEST_ARGS)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache --no-logo

format: setup
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# The API reference, docs/api.md, checked against the app: every example in it is sent to the
# app and must get the answer shown; every OpenAPI operation must have an example.
contract: setup
	$(PY) -m pytest -q -p no:cacheprovider tests/api/test_docs_api.py

bench: setup
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) var
