"""Errors name the editor's fields as the page shows them, never the form's keys, and while one
field does not parse the rest of the case is still previewed (docs/user-guide.md, "The editor")."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client

from evals_app.editor.field_labels import field_label
from evals_app.models import Case
from evals_app.services.imports.folders import import_workspace
from tests.editor.test_case_editor_views import editor_url
from tests.editor.test_period_editor import opened, period_case
from tests.factories import admin
from tests.imports.test_periods import PERIODS

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor() -> Client:
    """An administrator's client; the workspace of every AgentV period is imported."""
    import_workspace(PERIODS, "periods")
    client = Client()
    client.force_login(admin())
    return client


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("expected-0-tool-0-input", "Tool call 1 of expected message 1"),
        ("expected-1-tool-2-output", "Output of tool call 3 of expected message 2"),
        ("input-0-mapping", "Content of turn 1"),
        ("var-1-value", "Value of variable 2"),
        ("var-0-name", "Name of variable 1"),
        ("assert-0-yaml", "Assert 1"),
        ("assert-2-weight", "Weight of assert 3"),
        ("assert-0-command", "Command of assert 1"),
        ("cturn-1-input", "Input of conversation turn 2"),
        ("cturn-0-expected", "Expected output of conversation turn 1"),
        ("cturn-1-assert-0-weight", "Weight of assert 1 of conversation turn 2"),
        ("conversation-window_size", "Window (exchanges kept)"),
    ],
)
def test_a_field_is_named_as_the_page_shows_it(name: str, label: str) -> None:
    assert field_label(name) == label


def test_a_name_that_is_none_of_the_editors_fields_is_kept() -> None:
    assert field_label("candidate_answer") == "candidate_answer"


def preview(client: Client, case: Case, form: dict[str, str]) -> str:
    response = client.post(editor_url(case, "preview/"), form, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return unescape(response.content.decode())


def test_invalid_json_in_a_tool_call_is_named_as_the_page_shows_it(editor: Client) -> None:
    case = period_case("evals/2026-01/eval_cases.yaml", "tool-answer")
    form = {**opened(editor, case), "expected-0-tool-0-input": '{"order_id": '}

    html = preview(editor, case, form)

    assert "Tool call 1 of expected message 1: not valid JSON" in html
    assert "expected-0-tool-0-input:" not in html


def test_the_rest_of_the_preview_stays_while_one_field_is_invalid(editor: Client) -> None:
    case = period_case("evals/2026-01/eval_cases.yaml", "tool-answer")
    form = {**opened(editor, case), "expected-0-tool-0-input": '{"order_id": '}

    html = preview(editor, case, form)

    assert "The preview cannot be shown" not in html
    assert 'aria-label="Formatted question"' in html or "<h3>Formatted question</h3>" in html


def test_saving_with_an_invalid_field_names_it_and_saves_nothing(editor: Client) -> None:
    case = period_case("evals/2026-01/eval_cases.yaml", "tool-answer")
    form = {**opened(editor, case), "expected-0-tool-0-input": "{", "action": "save"}

    response = editor.post(editor_url(case), form)

    assert response.status_code == 422
    assert "Tool call 1 of expected message 1: not valid JSON" in unescape(
        response.content.decode()
    )
    assert Case.objects.get(pk=case.pk).version == case.version
