"""The API describes itself: the OpenAPI schema lists every endpoint, and its docs page runs on
our own static files, with no token needed to read either."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.security.test_production_settings import production_environment, run_python

pytestmark = pytest.mark.django_db

ENDPOINTS = {
    ("get", "/api/v1/workspaces"),
    ("get", "/api/v1/workspaces/{slug}/cases"),
    ("get", "/api/v1/workspaces/{slug}/case"),
    ("put", "/api/v1/workspaces/{slug}/case"),
    ("post", "/api/v1/workspaces/{slug}/case/review"),
    ("get", "/api/v1/workspaces/{slug}/case/reviews"),
    ("get", "/api/v1/workspaces/{slug}/case/suggestions"),
    ("post", "/api/v1/workspaces/{slug}/case/suggestions"),
    ("post", "/api/v1/workspaces/{slug}/suggestions/{pk}/apply"),
    ("post", "/api/v1/workspaces/{slug}/suggestions/{pk}/dismiss"),
    ("post", "/api/v1/workspaces/{slug}/assignments"),
    ("get", "/api/v1/queue"),
    ("get", "/api/v1/workspaces/{slug}/formatted"),
    ("get", "/api/v1/workspaces/{slug}/suites"),
    ("get", "/api/v1/workspaces/{slug}/case/revisions"),
    ("get", "/api/v1/workspaces/{slug}/case/review-steps"),
    ("post", "/api/v1/workspaces/{slug}/jobs/export"),
    ("post", "/api/v1/workspaces/{slug}/jobs/check"),
    ("post", "/api/v1/workspaces/{slug}/jobs/sync"),
    ("post", "/api/v1/workspaces/{slug}/jobs/publish"),
    ("post", "/api/v1/workspaces/{slug}/jobs/upgrade"),
    ("post", "/api/v1/workspaces/{slug}/jobs/link"),
    ("post", "/api/v1/workspaces/{slug}/jobs/link/confirm"),
    ("post", "/api/v1/imports"),
    ("post", "/api/v1/workspaces/{slug}/imports/tests"),
    ("get", "/api/v1/jobs"),
    ("get", "/api/v1/jobs/{job_id}"),
    ("post", "/api/v1/jobs/{job_id}/cancel"),
    ("get", "/api/v1/jobs/{job_id}/download"),
    ("post", "/api/v1/workspaces/{slug}/case/run"),
    ("get", "/api/v1/workspaces/{slug}/runs/{run_id}"),
}


@pytest.fixture
def schema() -> dict:
    response = Client().get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_the_schema_lists_every_endpoint(schema: dict) -> None:
    listed = {(method, path) for path, item in schema["paths"].items() for method in item}

    assert listed == ENDPOINTS


def test_every_endpoint_needs_a_bearer_token(schema: dict) -> None:
    schemes = schema["components"]["securitySchemes"]
    (name,) = schemes
    assert schemes[name] == {"type": "http", "scheme": "bearer"}
    for item in schema["paths"].values():
        for operation in item.values():
            assert operation["security"] == [{name: []}]


def test_the_schema_says_which_errors_each_endpoint_answers(schema: dict) -> None:
    case = schema["paths"]["/api/v1/workspaces/{slug}/case"]

    assert {"200", "400", "401", "403", "404", "409", "422"} <= set(case["put"]["responses"])
    assert "409" in schema["paths"]["/api/v1/workspaces/{slug}/case/review"]["post"]["responses"]


def test_the_docs_page_loads_its_scripts_from_our_static_files() -> None:
    response = Client().get("/api/v1/docs")

    assert response.status_code == 200
    page = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources and all(source.startswith("/static/") for source in sources)
    assert re.findall(r"<script[^>]*>", page) == [
        f'<script src="{source}">' for source in sources if source.endswith(".js")
    ]
    for source in sources:
        assert finders.find(source.removeprefix("/static/")), source


# Runs in a production process (DEBUG off, hashed static files served by WhiteNoise).
SERVE_DOCS = """
import json, re
import django
from django.core.management import call_command
django.setup()
call_command("collectstatic", "--noinput", verbosity=0)
from django.test import Client

from tests.security.test_production_settings import production_environment, run_python
client = Client(HTTP_HOST="evals.example.com")
page = client.get("/api/v1/docs", secure=True)
sources = re.findall(r'(?:src|href)="([^"]+)"', page.content.decode())
print(json.dumps({
    "status": page.status_code,
    "policy": page["Content-Security-Policy"],
    "files": {source: client.get(source, secure=True).status_code for source in sources},
}))
"""


def test_in_production_the_docs_page_files_are_collected_and_served(tmp_path: Path) -> None:
    result = run_python(["-c", SERVE_DOCS], production_environment(tmp_path))
    assert result.returncode == 0, result.stderr
    served = json.loads(result.stdout.splitlines()[-1])

    assert served["status"] == 200
    assert "script-src 'self'" in served["policy"]
    assert any(
        re.search(r"/static/ninja/swagger-ui-bundle\.[0-9a-f]+\.js$", f) for f in served["files"]
    )
    assert set(served["files"].values()) == {200}
