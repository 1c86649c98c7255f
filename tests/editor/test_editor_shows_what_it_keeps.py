"""The editor shows what it does not edit, and saves nothing a user did not mean
(docs/user-guide.md, "The editor for today's tests"): `negate: true` and every other assert
option in words, a code judge's script and folder, what grades a test without asserts, and a
conversation turn left empty refused by name."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from django.test import Client

from evals_app.models import Case
from tests import factories
from tests.editor.test_case_editor_views import editor_url
from tests.editor.test_period_editor import edited, opened, saved

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(db: None) -> Client:
    client = Client()
    client.force_login(factories.admin())
    return client


def _today_case(document: dict[str, Any], header: dict[str, Any] | None = None) -> Case:
    suite = factories.suite(
        factories.workspace("Today"),
        "evals/today.yaml",
        document={"prompts": ["{{ input }}"], **(header or {}), "tests": []},
        cases_key="tests",
        profile="agentv-2026",
    )
    return Case.objects.create(suite=suite, position=0, case_id=document["id"], document=document)


def _2025_case(evaluator: dict[str, Any]) -> Case:
    suite = factories.suite(factories.workspace("Old"))
    return factories.case(suite, "judged", execution={"evaluators": [evaluator]})


NEGATED = {
    "id": "no-apology",
    "criteria": "Answers without apologising.",
    "vars": {"input": "Where is my parcel?"},
    "assert": [
        {"type": "contains", "value": "sorry", "negate": True, "metadata": {"team": "tone"}}
    ],
}


def test_a_negated_check_is_said_plainly(editor: Client) -> None:
    html = editor.get(editor_url(_today_case(NEGATED))).content.decode()

    negation = html.split('id="assert-0-negation">', 1)[1].split("</p>", 1)[0]
    assert "The answer must NOT contain this text" in negation
    assert "<code>negate: true</code>" in negation


def test_every_assert_option_the_form_does_not_edit_is_shown(editor: Client) -> None:
    html = editor.get(editor_url(_today_case(NEGATED))).content.decode()

    kept = html.split('id="assert-0-kept">\n', 1)[1].split("</pre>", 1)[0]
    assert kept == "metadata:\n  team: tone"  # `negate` has its own box


def test_a_negated_check_edited_in_the_editor_stays_negated(editor: Client) -> None:
    case = _today_case(NEGATED)

    document = saved(editor, case, {**opened(editor, case), "assert-0-value": "apologise"})

    assert document["assert"] == [
        {"type": "contains", "value": "apologise", "negate": True, "metadata": {"team": "tone"}}
    ]


@pytest.mark.parametrize("kind", ["code_judge", "code"])
def test_a_code_judge_shows_its_script_and_folder_not_a_judges_fields(
    editor: Client, kind: str
) -> None:
    case = _2025_case({"name": "json", "type": kind, "script": "uv run check.py", "cwd": "bin"})

    html = editor.get(editor_url(case)).content.decode()

    assert 'name="evaluator-0-script" value="uv run check.py"' in html
    assert 'name="evaluator-0-cwd" value="bin"' in html
    assert 'name="evaluator-0-prompt"' not in html
    assert 'name="evaluator-0-model"' not in html


def test_a_code_judge_edited_in_the_editor_keeps_its_type_and_other_fields(
    editor: Client,
) -> None:
    case = _2025_case(
        {"name": "json", "type": "code_judge", "script": "uv run check.py", "weight": 2}
    )
    form = opened(editor, case)

    document = saved(editor, case, {**form, "evaluator-0-script": "uv run strict.py"})

    assert document["execution"]["evaluators"] == [
        {"name": "json", "type": "code_judge", "script": "uv run strict.py", "weight": 2}
    ]
    html = editor.get(editor_url(case)).content.decode()
    assert html.split('id="evaluator-0-kept">\n', 1)[1].startswith("weight: 2</pre>")


def _note(html: str) -> str:
    return unescape(html.split('id="asserts-note"', 1)[1].split(">", 1)[1].split("</p>", 1)[0])


def test_a_test_graded_by_its_criteria_is_not_called_ungraded(editor: Client) -> None:
    case = _today_case({"id": "greets", "criteria": "Greets back.", "vars": {"input": "Hi"}})
    form = opened(editor, case)

    page = editor.get(editor_url(case)).content.decode()
    preview = editor.post(editor_url(case, "preview/"), form).content.decode()

    assert "not graded" not in page
    assert _note(page) == (
        "No asserts: one judge grades it against its criteria (the preview shows its prompt)."
    )
    assert "Greets back." in preview.split("Judge prompt", 1)[1]
    assert "not graded: no assert" not in preview


def test_a_test_graded_by_the_suites_asserts_says_so(editor: Client) -> None:
    case = _today_case({"id": "greets", "vars": {"input": "Hi"}}, {"assert": ["Is polite"]})

    page = editor.get(editor_url(case)).content.decode()

    assert _note(page).startswith("No asserts of its own: the suite's asserts grade it")


def test_a_test_without_criteria_or_asserts_is_not_graded_here_and_in_the_preview(
    editor: Client,
) -> None:
    case = _today_case({"id": "greets", "vars": {"input": "Hi"}})
    form = opened(editor, case)

    page = editor.get(editor_url(case)).content.decode()
    preview = editor.post(editor_url(case, "preview/"), form).content.decode()

    assert _note(page) == "No asserts: the test is not graded."
    assert "not graded: no assert" in preview


def test_typing_criteria_updates_the_asserts_note_beside_the_preview(editor: Client) -> None:
    case = _today_case({"id": "greets", "vars": {"input": "Hi"}})
    form = {**opened(editor, case), "outcome": "Greets back."}

    preview = editor.post(
        editor_url(case, "preview/"), form, HTTP_HX_REQUEST="true"
    ).content.decode()

    oob = 'id="asserts-note" aria-live="polite" hx-swap-oob="true">'
    assert f"{oob}No asserts: one judge" in preview


def test_saving_a_new_conversation_test_with_an_empty_turn_is_refused_naming_the_turn(
    editor: Client,
) -> None:
    case = _today_case({"id": "chat", "criteria": "Helps.", "vars": {"input": "Hi"}})
    form = edited(editor, case, opened(editor, case), "make-conversation")

    response = editor.post(editor_url(case), {**form, "action": "save"})

    assert response.status_code == 422
    assert "conversation turn 1 has no user input" in response.content.decode()
    assert Case.objects.get(pk=case.pk).document == case.document


def test_a_conversation_turn_with_its_input_typed_is_saved(editor: Client) -> None:
    case = _today_case({"id": "chat", "criteria": "Helps.", "vars": {"input": "Hi"}})
    form = edited(editor, case, opened(editor, case), "make-conversation")

    document = saved(editor, case, {**form, "cturn-0-input": "And tomorrow?"})

    assert document["turns"] == [{"input": "And tomorrow?"}]


def test_the_preview_of_a_new_empty_turn_still_shows(editor: Client) -> None:
    case = _today_case({"id": "chat", "criteria": "Helps.", "vars": {"input": "Hi"}})
    form = edited(editor, case, opened(editor, case), "make-conversation")

    preview = editor.post(editor_url(case, "preview/"), form).content.decode()

    assert "The preview cannot be shown" not in preview


def test_a_turn_the_file_has_empty_saves_as_it_was(editor: Client) -> None:
    document = {"id": "chat", "vars": {"input": "Hi"}, "turns": [{"input": ""}, {"input": "Ok"}]}
    case = _today_case(document)
    form = opened(editor, case)

    stored = saved(editor, case, {**form, "outcome": "Helps."})

    assert stored["turns"] == [{"input": ""}, {"input": "Ok"}]


@pytest.mark.parametrize(
    ("document", "header", "graded"),
    [
        pytest.param({"criteria": "Greets."}, {}, True, id="criteria"),
        pytest.param({"expected_outcome": "Greets."}, {}, True, id="expected_outcome"),
        pytest.param({"outcome": "Greets."}, {}, False, id="outcome, which AgentV ignores"),
        pytest.param({}, {}, False, id="nothing"),
        pytest.param({}, {"assert": ["Is polite"]}, True, id="the suite's asserts"),
        pytest.param(
            {"execution": {"skip_defaults": True}},
            {"assert": ["Is polite"]},
            False,
            id="the suite's asserts skipped",
        ),
    ],
)
def test_the_asserts_note_and_the_preview_agree_on_whether_a_test_is_graded(
    editor: Client, document: dict[str, Any], header: dict[str, Any], graded: bool
) -> None:
    case = _today_case({"id": "greets", "vars": {"input": "Hi"}, **document}, header)
    form = opened(editor, case)

    page = editor.get(editor_url(case)).content.decode()
    preview = editor.post(editor_url(case, "preview/"), form).content.decode()

    assert ("not graded" in _note(page)) is not graded
    assert ("not graded: no assert" in preview) is not graded
