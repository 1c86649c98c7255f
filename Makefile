# Two commands for a fresh machine: `make run` and `make test` (see README).
PYTHON ?= python3
UV_VERSION := 0.13.8
UV := .tools/bin/uv
MANAGE := .venv/bin/python manage.py
CHROMIUM := /usr/bin/chromium
POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/postgres
PORT ?= 8000
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(CURDIR)/.venv

.PHONY: run test test-postgres bench bench-quick setup lint typecheck pytest chromium git postgres node clean

run: setup ## Set up, load the example workspace, print the login, serve on 127.0.0.1:$(PORT) with a worker
	$(MANAGE) migrate --noinput
	$(MANAGE) local_setup --address 127.0.0.1:$(PORT)
	@# One worker beside the server for the long jobs (docs/jobs.md); Ctrl-C stops both.
	@# Runs of tests with AgentV are on for this local setup (off by default: docs/runs.md).
	export AGENTV_RUNS_ENABLED="$${AGENTV_RUNS_ENABLED:-true}"; \
	$(MANAGE) run_worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	$(MANAGE) runserver 127.0.0.1:$(PORT)

test: setup chromium git lint typecheck pytest ## Set up everything and run the whole suite

test-postgres: setup chromium postgres ## The whole pytest suite on PostgreSQL (POSTGRES_URL=...)
	DATABASE_URL='$(POSTGRES_URL)' .venv/bin/pytest

bench: setup chromium git ## Every performance figure, one JSON line each (docs/performance.md)
	.venv/bin/python -m bench.run $(ARGS)

bench-quick: setup chromium ## The same at a small size, as a smoke test (under a minute)
	.venv/bin/python -m bench.run --quick $(ARGS)

setup: .venv/.synced git node_modules/.installed

node: ## Debian's Node.js and npm, which run the AgentV CLI (docs/runs.md), installed when missing
	@command -v npm >/dev/null || { \
	  echo "Installing Debian's nodejs and npm packages for the AgentV CLI"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nodejs npm >/dev/null; \
	}

# The pinned AgentV CLI (package.json, package-lock.json) into node_modules/. `npm install
# --no-save` installs the locked versions and leaves the lock as it is: `npm ci` refuses this
# lock, which lacks the other platforms' builds of an optional dependency the registry omits.
node_modules/.installed: package.json package-lock.json | node
	npm install --no-save --no-audit --no-fund --loglevel=error
	touch $@

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/pip install --quiet uv==$(UV_VERSION)

.venv/.synced: pyproject.toml uv.lock | $(UV)
	$(UV) sync --frozen --python $(PYTHON)
	touch $@

chromium: ## Debian's Chromium for the browser tests, installed when missing and possible
	@test -x $(CHROMIUM) || { \
	  echo "Installing Debian's chromium package for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; \
	}

git: ## Debian's git, which linked repositories and their tests use, installed when missing
	@command -v git >/dev/null || { \
	  echo "Installing Debian's git package for linked repositories"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq git >/dev/null; \
	}

postgres: ## Start the local PostgreSQL cluster if it is installed but not running
	@if command -v pg_ctlcluster >/dev/null && ! pg_isready -q -h 127.0.0.1; then \
	  echo "Starting the local PostgreSQL cluster"; \
	  pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql | sort -V | tail -n 1) main start; \
	fi

lint: setup
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .

typecheck: setup
	.venv/bin/mypy .

pytest: setup
	.venv/bin/pytest

clean:
	rm -rf .venv .tools .pytest_cache .mypy_cache .ruff_cache .hypothesis node_modules
