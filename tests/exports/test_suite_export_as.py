"""Export as… on the suite page: any member sees what each format leaves out and downloads the
suite as a promptfoo config or chat JSONL; to anyone else the suite does not exist
(docs/exports.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from django.test import Client
from django.urls import reverse

from evals_app.models import Suite, Workspace
from evals_app.services.imports.folders import import_workspace
from tests import factories
from tests.pages.test_page_query_counts import queries

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "today"


@pytest.fixture
def today() -> Workspace:
    return import_workspace(FIXTURE, "Today").workspace


def _page(suite: Suite) -> str:
    return reverse("suite_export", args=[suite.workspace.slug, suite.pk])


def _file(suite: Suite, format_name: str) -> str:
    return reverse("suite_export_file", args=[suite.workspace.slug, suite.pk, format_name])


def test_a_viewer_downloads_the_promptfoo_config(client: Client, today: Workspace) -> None:
    suite = today.suites.get()
    client.force_login(factories.member(today, "viewer"))

    response = client.get(_file(suite, "promptfoo"))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/yaml; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="shop.eval.promptfoo.yaml"'
    config = yaml.safe_load(response.content)
    assert config["description"] == (
        "Today's format, prompts x vars, a conversation test and asserts of each kind"
    )
    # greet-en, greet-fr, judged-by-file, not-graded, and the two turns of chat.
    assert len(config["tests"]) == 6


def test_a_viewer_downloads_the_chat_jsonl(client: Client, today: Workspace) -> None:
    suite = today.suites.get()
    client.force_login(factories.member(today, "viewer"))

    response = client.get(_file(suite, "chat-jsonl"))

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="shop.eval.chat.jsonl"'
    lines = [json.loads(line) for line in response.content.decode().splitlines()]
    assert len(lines) == 5
    assert lines[0]["messages"][0] == {"role": "system", "content": "You work at Tea & Co."}


def test_the_export_page_lists_each_formats_download_and_warnings(
    client: Client, today: Workspace
) -> None:
    suite = today.suites.get()
    client.force_login(factories.member(today, "viewer"))

    html = client.get(_page(suite)).content.decode()

    assert f'href="{_file(suite, "promptfoo")}"' in html
    assert f'href="{_file(suite, "chat-jsonl")}"' in html
    assert "`assert[0].prompt`: promptfoo&#x27;s `llm-rubric` assert has no `prompt`" in html
    assert "`turns[1].assert`: chat JSONL has no place for it; left out" in html


def test_the_suite_page_links_to_export_as(client: Client, today: Workspace) -> None:
    suite = today.suites.get()
    client.force_login(factories.member(today, "viewer"))

    html = client.get(reverse("suite_detail", args=[today.slug, suite.pk])).content.decode()

    assert f'<a href="{_page(suite)}">Export as…</a>' in html


@pytest.mark.parametrize("format_name", ["promptfoo", "chat-jsonl", None])
def test_a_non_member_gets_404(client: Client, today: Workspace, format_name: str | None) -> None:
    suite = today.suites.get()
    client.force_login(factories.member(factories.workspace("Other"), "owner"))

    url = _page(suite) if format_name is None else _file(suite, format_name)

    assert client.get(url).status_code == 404


def test_an_unknown_format_is_404(client: Client, today: Workspace) -> None:
    suite = today.suites.get()
    client.force_login(factories.member(today, "owner"))

    assert client.get(_file(suite, "xlsx")).status_code == 404


def test_exporting_changes_nothing_and_answers_only_get(client: Client, today: Workspace) -> None:
    suite = today.suites.get()
    client.force_login(factories.member(today, "owner"))
    before = factories.database_snapshot()

    assert client.post(_file(suite, "promptfoo")).status_code == 405
    client.get(_file(suite, "promptfoo"))

    assert factories.database_snapshot() == before


def test_the_export_uses_as_many_queries_for_many_cases_as_for_one(client: Client) -> None:
    client.force_login(factories.admin())
    space = factories.workspace("Counted")
    small, large = (
        factories.suite(space, "evals/small.yaml"),
        factories.suite(space, "evals/l.yaml"),
    )
    factories.case(small, "only")
    for number in range(10):
        factories.case(large, f"case-{number}")

    for name in ("promptfoo", "chat-jsonl", None):
        counts = [
            queries(client, "get", _page(suite) if name is None else _file(suite, name))
            for suite in (small, large)
        ]
        assert counts[0] == counts[1], name


def test_the_export_page_says_an_older_suite_is_read_as_upgraded(client: Client) -> None:
    space = factories.workspace("Older")
    older = factories.suite(space, "evals/old.yaml")
    factories.case(older, "old-case")
    client.force_login(factories.member(space, "viewer"))

    html = client.get(_page(older)).content.decode()

    assert "it is read as upgraded to today's format, without changing it" in html
