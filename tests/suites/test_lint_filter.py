"""The suite page's lint filter and each case's findings, read from the stored summaries
(docs/user-guide.md, "Lint rules")."""

from __future__ import annotations

import pytest
from django.test import Client

from evals_app.models import Case
from evals_app.services.cases.editing import save_case
from tests.factories import case, suite, workspace

pytestmark = pytest.mark.django_db


def suite_page(client: Client, case: Case, **query: str) -> str:
    url = f"/w/{case.suite.workspace.slug}/suites/{case.suite.pk}/"
    return client.get(url, query).content.decode()


def test_a_saved_case_stores_its_lint_findings() -> None:
    made = case(suite(workspace()), "twice", ("user", "Hi"), ("user", "Hello?"))

    assert [finding["rule"] for finding in made.lint_findings] == ["role-order"]
    assert made.lint_findings[0]["turn"] == 1


def test_fixing_the_case_clears_its_findings() -> None:
    made = case(suite(workspace()), "twice", ("user", "Hi"), ("user", "Hello?"))
    document = made.document
    document["input_messages"].insert(1, {"role": "assistant", "content": "Hello!"})

    saved = save_case(made, document, made.version)

    assert saved.lint_findings == []


@pytest.mark.parametrize(("lint", "listed"), [("with", ["twice"]), ("without", ["clean"])])
def test_the_filter_lists_the_cases_with_or_without_findings(
    signed_in: Client, lint: str, listed: list[str]
) -> None:
    owner = suite(workspace())
    case(owner, "clean", ("user", "What is the refund window?"))
    twice = case(owner, "twice", ("user", "Hi"), ("user", "Hello?"))

    html = suite_page(signed_in, twice, lint=lint)

    shown = [name for name in ("clean", "twice") if f">{name}</a>" in html]
    assert shown == listed


def test_the_page_shows_each_cases_findings(signed_in: Client) -> None:
    twice = case(suite(workspace()), "twice", ("user", "Hi"), ("user", "Hello?"))

    html = suite_page(signed_in, twice)

    assert "1 lint finding" in html
    assert "Input turn 2 is a second user turn in a row" in html
