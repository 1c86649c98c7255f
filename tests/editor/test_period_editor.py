"""Every case of every AgentV period opens and saves in the editor unchanged, and edits of the
newer shapes (tool calls, content as a mapping, kept blocks, string-form input) land where they
were written (docs/formats.md, "Round trip")."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, example, given, settings

from evals_app.eval_files.errors import EvalFileError
from evals_app.models import Case, Revision, Suite, Workspace
from evals_app.services.cases.editing import paste_case
from evals_app.services.imports.folders import import_workspace
from tests import factories
from tests.editor.test_case_editor_views import editor_url, form_of
from tests.factories import admin
from tests.imports.test_periods import PERIOD_CASES, PERIODS, exactly
from tests.strategies import period_cases

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor() -> Client:
    import_workspace(PERIODS, "periods")
    client = Client()
    client.force_login(admin())
    return client


def period_case(suite_path: str, case_id: str) -> Case:
    return Case.objects.select_related("suite__workspace").get(
        suite__path=suite_path, case_id=case_id
    )


def opened(editor: Client, case: Case) -> dict[str, str]:
    """The editor form of `case`, as a browser would submit it untouched."""
    response = editor.get(editor_url(case))
    assert response.status_code == 200
    return form_of(response.content.decode())


def saved(editor: Client, case: Case, form: dict[str, str]) -> Any:
    """Save `form` for `case`; the document stored afterwards."""
    response = editor.post(editor_url(case), {**form, "action": "save"})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Case.objects.get(pk=case.pk).document


def edited(editor: Client, case: Case, form: dict[str, str], action: str) -> dict[str, str]:
    """The form after a structural edit (`move-block:…`), as the page re-renders it."""
    response = editor.post(editor_url(case), {**form, "action": action})
    assert response.status_code == 200
    return form_of(response.content.decode())


@pytest.mark.parametrize(("suite_path", "case_id"), PERIOD_CASES)
def test_opening_and_saving_a_case_of_any_period_changes_nothing(
    editor: Client, suite_path: str, case_id: str
) -> None:
    case = period_case(suite_path, case_id)
    before = case.document

    form = opened(editor, case)
    response = editor.post(editor_url(case), {**form, "action": "save"})

    after = Case.objects.get(pk=case.pk)
    # A CSV file's cases are read-only: saving them is refused (and changes nothing either).
    assert response.status_code == (422 if suite_path.endswith(".csv") else 302)
    assert exactly(after.document) == exactly(before)
    assert after.version == case.version
    assert not Revision.objects.filter(case=case).exists()


@pytest.mark.parametrize(("suite_path", "case_id"), PERIOD_CASES)
def test_the_preview_of_a_case_of_any_period_answers(
    editor: Client, suite_path: str, case_id: str
) -> None:
    case = period_case(suite_path, case_id)

    response = editor.post(editor_url(case, "preview/"), opened(editor, case))

    html = response.content.decode()
    assert response.status_code == 200
    # The 2025 profile shows one formatted question; the 2026 one a question per expanded test.
    assert 'aria-label="Formatted question"' in html or "<h3>Formatted question</h3>" in html


def test_changing_a_tool_calls_input_keeps_the_rest_of_the_message(editor: Client) -> None:
    case = period_case("evals/2026-01/eval_cases.yaml", "tool-answer")
    form = opened(editor, case)

    document = saved(editor, case, {**form, "expected-0-tool-0-input": '{"order_id": 43}'})

    assert document["expected_output"] == [
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "tool": "lookup_order",
                    "input": {"order_id": 43},
                    "output": {"status": "shipped", "eta_days": 2},
                }
            ],
        }
    ]
    assert list(document) == ["id", "expected_outcome", "input", "expected_output"]


def test_editing_a_mapping_content_as_json_saves_the_mapping(editor: Client) -> None:
    case = period_case("evals/mixed/shapes.yaml", "content-mapping")
    form = opened(editor, case)

    document = saved(
        editor, case, {**form, "input-0-mapping": '{"question": "Which plan?", "budget": 30}'}
    )

    assert document["input"] == [
        {"role": "user", "name": "alice", "content": {"question": "Which plan?", "budget": 30}}
    ]
    assert exactly(document["expected_output"]) == exactly(case.document["expected_output"])


def test_invalid_json_in_a_mapping_content_is_shown_and_nothing_is_saved(
    editor: Client,
) -> None:
    case = period_case("evals/mixed/shapes.yaml", "content-mapping")
    form = opened(editor, case)

    response = editor.post(
        editor_url(case), {**form, "input-0-mapping": '{"question": ', "action": "save"}
    )

    assert response.status_code == 422
    assert "Content of turn 1: not valid JSON" in response.content.decode()
    assert Case.objects.get(pk=case.pk).version == case.version


def test_a_kept_image_block_can_be_moved(editor: Client) -> None:
    case = period_case("evals/mixed/shapes.yaml", "other-blocks")
    blocks = case.document["input"][0]["content"]

    form = edited(editor, case, opened(editor, case), "move-block:input:0:0:down")
    document = saved(editor, case, form)

    assert document["input"][0]["content"] == [blocks[1], blocks[0], *blocks[2:]]
    assert exactly(document["input"][0]["content"][1]) == exactly(blocks[0])


def test_deleting_the_turn_of_a_string_input_removes_the_key(editor: Client) -> None:
    case = period_case("evals/2025-12/evalcases.yaml", "greeting")

    form = edited(editor, case, opened(editor, case), "delete-turn:input:0")
    document = saved(editor, case, form)

    assert document == {"id": "greeting", "expected_outcome": "A friendly greeting."}


def test_a_second_turn_makes_a_string_input_a_list_of_messages(editor: Client) -> None:
    case = period_case("evals/2026-02/tests.yaml", "string-input")

    form = edited(editor, case, opened(editor, case), "add-turn:input:assistant")
    document = saved(editor, case, {**form, "input-1-block-0-value": "Four."})

    assert document["input"] == [
        {"role": "user", "content": "What is 2+2?"},
        {"role": "assistant", "content": "Four."},
    ]
    assert list(document) == ["test_id", "criteria", "input", "assert"]


def test_a_csv_files_case_opens_read_only(editor: Client) -> None:
    case = period_case("evals/references/cases/table.csv", "csv-1")

    html = editor.get(editor_url(case)).content.decode()

    assert 'id="save-button"' not in html
    assert "The cases of a CSV file are read-only" in html
    assert 'name="outcome" rows="2" class="grow" readonly' in html


def test_saving_a_csv_files_case_is_refused_with_a_message(editor: Client) -> None:
    case = period_case("evals/references/cases/table.csv", "csv-1")
    form = opened(editor, case)

    response = editor.post(editor_url(case), {**form, "outcome": "Says 2.", "action": "save"})

    assert response.status_code == 422
    assert "Not saved: the cases of a CSV file are read-only" in response.content.decode()
    assert exactly(Case.objects.get(pk=case.pk).document) == exactly(case.document)


def test_pasting_a_case_into_a_csv_file_is_refused(editor: Client) -> None:
    suite = Suite.objects.get(path="evals/references/cases/table.csv")

    with pytest.raises(EvalFileError, match="the cases of a CSV file are read-only"):
        paste_case(suite, "id: csv-3\ninput: What is 3+3?\n")

    assert list(suite.cases.values_list("case_id", flat=True)) == ["csv-1", "csv-2"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=period_cases("generated"))
# A judge with a `script` (a field the form shows only for code evaluators).
@example(
    document={
        "id": "generated",
        "execution": {"evaluators": [{"name": "j", "type": "llm_judge", "script": "check.py"}]},
    }
)
def test_any_case_of_any_period_saves_unchanged_from_the_editor(
    document: dict[str, Any],
) -> None:
    Workspace.objects.all().delete()
    suite = factories.suite(factories.workspace("Generated"), "evals/generated.yaml")
    case = Case.objects.create(suite=suite, position=0, case_id="generated", document=document)
    client = Client()
    client.force_login(User.objects.filter(is_superuser=True).first() or admin())

    form = opened(client, case)
    response = client.post(editor_url(case), {**form, "action": "save"})

    assert response.status_code == 302
    assert exactly(Case.objects.get(pk=case.pk).document) == exactly(document)
    assert not Revision.objects.filter(case=case).exists()
