# Two commands for a fresh machine: `make run` and `make test` (see README).
PYTHON ?= python3
UV_VERSION := 0.13.8
UV := .tools/bin/uv
MANAGE := .venv/bin/python manage.py
CHROMIUM := /usr/bin/chromium
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(CURDIR)/.venv

.PHONY: run test setup lint typecheck pytest chromium clean

run: setup ## Set up, load the example workspace, print the login, serve on 127.0.0.1:8000
	$(MANAGE) migrate --noinput
	$(MANAGE) local_setup
	$(MANAGE) runserver 127.0.0.1:8000

test: setup chromium lint typecheck pytest ## Set up everything and run the whole suite

setup: .venv/.synced

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

lint: setup
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .

typecheck: setup
	.venv/bin/mypy .

pytest: setup
	.venv/bin/pytest

clean:
	rm -rf .venv .tools .pytest_cache .mypy_cache .ruff_cache .hypothesis
