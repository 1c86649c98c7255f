"""With DJANGO_DEBUG off the settings are production-grade: `check --deploy` is clean, pages carry
the security headers, and WhiteNoise serves the collected, hashed static files.

Settings are read once per process, so each check runs in a fresh `python` with production
environment variables (docs/deployment.md).
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPOSITORY

# Variables of the development environment that must not leak into the production process
# (the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE for Playwright, see tests/browser/conftest.py).
DEVELOPMENT_ONLY = (
    "DJANGO_DEBUG",
    "DATABASE_URL",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def production_environment(tmp_path: Path, **overrides: str) -> dict[str, str]:
    """What docs/deployment.md sets, with nothing else relaxed."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in DEVELOPMENT_ONLY and not name.startswith(("DJANGO_SECURE", "AGENTV_"))
    }
    environment.update(
        DJANGO_SETTINGS_MODULE="agentv_web.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="evals.example.com",
        DATABASE_URL=f"sqlite:///{tmp_path / 'production.sqlite3'}",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        AGENTV_DATA_DIR=str(tmp_path / "data"),
        **overrides,
    )
    return environment


def run_python(
    arguments: list[str], environment: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=REPOSITORY,
        env=environment,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_production_settings_pass_check_deploy_at_warning_level(tmp_path: Path) -> None:
    result = run_python(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        production_environment(tmp_path),
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_refuse_to_start_without_a_secret_key(tmp_path: Path) -> None:
    environment = production_environment(tmp_path)
    del environment["DJANGO_SECRET_KEY"]

    result = run_python(["manage.py", "check"], environment)

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off" in result.stderr


# Runs in the production process: collect the static files as the README says, then request
# the login page and one of the files it links to over (proxied) HTTPS, and over plain HTTP.
SERVE_PAGES = """
import json, re
import django
from django.core.management import call_command
django.setup()
call_command("collectstatic", "--noinput", verbosity=0)
from django.test import Client
client = Client(HTTP_HOST="evals.example.com")
plain = client.get("/login/")
page = client.get("/login/", secure=True)
html = page.content.decode()
stylesheet = re.search(r'href="(/static/css/app[.][0-9a-f]+[.]css)"', html).group(1)
static = client.get(stylesheet, secure=True)
print(json.dumps({
    "plain": [plain.status_code, plain.get("Location")],
    "status": page.status_code,
    "headers": dict(page.headers),
    "cookies": {name: dict(morsel) for name, morsel in page.cookies.items()},
    "stylesheet": stylesheet,
    "static": [static.status_code, static.get("Cache-Control"), static.get("Content-Type")],
}))
"""


@pytest.fixture(scope="module")
def production_login_page(tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp_path = tmp_path_factory.mktemp("production")
    result = run_python(["-c", SERVE_PAGES], production_environment(tmp_path))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_plain_http_is_redirected_to_https(production_login_page: dict) -> None:
    assert production_login_page["plain"] == [301, "https://evals.example.com/login/"]


def test_pages_carry_the_security_headers(production_login_page: dict) -> None:
    headers = production_login_page["headers"]

    assert production_login_page["status"] == 200
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]


def test_cookies_are_secure_and_hidden_from_scripts(production_login_page: dict) -> None:
    csrf_cookie = production_login_page["cookies"]["csrftoken"]

    assert csrf_cookie["secure"] is True
    assert csrf_cookie["httponly"] is True


def test_static_files_are_served_hashed_and_cacheable_forever(
    production_login_page: dict,
) -> None:
    status, cache_control, content_type = production_login_page["static"]

    assert status == 200
    assert content_type.startswith("text/css")
    assert "immutable" in cache_control
