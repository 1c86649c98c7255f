"""A suite's prompts on its settings page: edited one by one (a template, a prompt file, YAML for
the rest), saved into the file in their place without touching anything else, and the tests
AgentV expands each case to, listed under them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.eval_files.errors import EvalFileError
from evals_app.eval_files.json_text import encode_json
from evals_app.models import ActivityRecord, Case, Suite
from evals_app.services.suites.fields import edit_suite_prompts
from evals_app.services.suites.prompts import PromptRow, rows_of
from tests import factories
from tests.suites.test_suite_fields import signed_in_as, stored, url

pytestmark = pytest.mark.django_db

HELP_WIDGET = """\
name: help-widget
prompts:
  - "{{ input }}"
  - id: terse
    raw: "Answer in one sentence. {{ input }}"
default_test:
  vars:
    product: Lumen
tests:
  - id: opening-hours-{{ language }}
    criteria: Answers in the customer's language.
    vars:
      language: [English, French]
      input: Is support open at the weekend?
  - id: small-talk
    vars:
      input: Thanks, that was quick!
"""
INPUT_PROMPT = "prompt-c43d1157061e"  # `prompt-` + the SHA-256 of '"{{ input }}"', as AgentV


@pytest.fixture
def suite(tmp_path: Path) -> Suite:
    root = factories.write_files(tmp_path, {"evals/help.eval.yaml": HELP_WIDGET})
    workspace = factories.imported_workspace(root, "Help")
    factories.workspace_file(workspace, "prompts/formal.md", "Dear customer, {{ input }}")
    return workspace.suites.get()


def form(*rows: tuple[str, str], action: str = "save") -> dict[str, str]:
    data = {"prompt-count": str(len(rows)), "action": action}
    for index, (kind, text) in enumerate(rows):
        data[f"prompt-{index}-kind"] = kind
        data[f"prompt-{index}-text"] = text
    return data


STORED_ROWS = (
    ("template", "{{ input }}"),
    ("yaml", "id: terse\nraw: 'Answer in one sentence. {{ input }}'\n"),
)


# The service


def test_saving_prompts_replaces_them_in_their_place(suite: Suite) -> None:
    rows = [PromptRow("template", "{{ input }}"), PromptRow("file", "prompts/formal.md")]

    changes = edit_suite_prompts(suite, rows)

    document = stored(suite).document
    assert changes == "prompts changed (2 prompts)"
    assert list(document) == ["name", "prompts", "default_test", "tests"]
    assert document["prompts"] == ["{{ input }}", "file://prompts/formal.md"]


def test_new_prompts_go_just_before_the_list_of_cases(suite: Suite) -> None:
    Suite.objects.filter(pk=suite.pk).update(
        document={"name": "x", "tests": [None, None], "providers": ["default"]}
    )

    changes = edit_suite_prompts(stored(suite), [PromptRow("template", "{{ input }}")])

    assert changes == "prompts added (1 prompt)"
    assert list(stored(suite).document) == ["name", "prompts", "tests", "providers"]


@pytest.mark.usefixtures("tasks_in_the_database")
def test_saving_the_prompts_unchanged_changes_and_records_nothing(suite: Suite) -> None:
    prompts = ["{{ input }}", {"id": "terse", "raw": "x", 2: "a number as key", "weight": 1.0}]
    document = {**suite.document, "prompts": prompts}
    Suite.objects.filter(pk=suite.pk).update(document=document)
    before = stored(suite)

    changes = edit_suite_prompts(before, rows_of(before.document["prompts"]))

    after = stored(suite)
    assert changes == ""
    assert encode_json(after.document) == encode_json(document)
    assert after.updated_at == before.updated_at
    assert not ActivityRecord.objects.filter(action=ActivityRecord.Action.SUITE_EDITED).exists()
    assert not factories.summaries_pending(suite)


@pytest.mark.parametrize(
    "value",
    [
        "{{ input }}",
        [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "{{ input }}"}],
        [],
    ],
    ids=["one string", "a chat array", "an empty list"],
)
def test_prompts_of_another_shape_stay_as_written_when_unchanged(suite: Suite, value: Any) -> None:
    Suite.objects.filter(pk=suite.pk).update(document={**suite.document, "prompts": value})

    assert edit_suite_prompts(stored(suite), rows_of(value)) == ""
    assert stored(suite).document["prompts"] == value


def test_removing_every_prompt_removes_the_key(suite: Suite) -> None:
    changes = edit_suite_prompts(suite, [])

    assert changes == "prompts removed"
    assert list(stored(suite).document) == ["name", "default_test", "tests"]


def test_no_prompts_where_there_were_none_changes_nothing(suite: Suite) -> None:
    edit_suite_prompts(suite, [])

    assert edit_suite_prompts(stored(suite), []) == ""
    assert "prompts" not in stored(suite).document


def test_yaml_that_does_not_parse_is_refused_and_nothing_is_saved(suite: Suite) -> None:
    rows = [PromptRow("template", "{{ input }}"), PromptRow("yaml", "id: terse\nraw: [x\n")]

    with pytest.raises(EvalFileError) as raised:
        edit_suite_prompts(suite, rows)

    assert raised.value.message.startswith("Prompt 2, line 3: not valid YAML")
    assert stored(suite).document["prompts"][1] == {
        "id": "terse",
        "raw": "Answer in one sentence. {{ input }}",
    }


@pytest.mark.usefixtures("tasks_in_the_database")
def test_saving_is_recorded_and_marks_the_summaries_out_of_date(suite: Suite) -> None:
    editor = factories.member(suite.workspace, "editor", "alice")

    edit_suite_prompts(suite, [PromptRow("template", "{{ input }}")], editor)

    record = ActivityRecord.objects.get(action=ActivityRecord.Action.SUITE_EDITED)
    assert (record.actor, record.detail) == (editor, "prompts changed (1 prompt)")
    assert factories.summaries_pending(suite)


def test_a_file_of_cases_has_no_prompts_to_save(suite: Suite) -> None:
    listed = factories.suite(suite.workspace, "evals/more.jsonl", file_format="jsonl")

    with pytest.raises(EvalFileError, match="holds only its cases"):
        edit_suite_prompts(listed, [PromptRow("template", "{{ input }}")])


# The page


def test_the_page_lists_each_case_with_the_tests_it_expands_to(
    client: Client, suite: Suite
) -> None:
    html = signed_in_as(client, suite.workspace, "editor").get(url("suite_settings", suite))

    page = html.content.decode()
    assert "2 cases run as 6 tests" in page
    expanded = [
        f"opening-hours-English__prompt_{INPUT_PROMPT}",
        f"opening-hours-French__prompt_{INPUT_PROMPT}",
        "opening-hours-English__prompt_terse",
        "opening-hours-French__prompt_terse",
        f"small-talk__prompt_{INPUT_PROMPT}",
        "small-talk__prompt_terse",
    ]
    positions = [page.index(f"<code>{test_id}</code>") for test_id in expanded]
    assert positions == sorted(positions)
    assert page.count("<code>language: French</code>") == 2


def test_each_case_links_to_its_editor(client: Client, suite: Suite) -> None:
    page = signed_in_as(client, suite.workspace, "editor").get(url("suite_settings", suite))

    for case in suite.cases.all():
        link = reverse("case_editor", args=[suite.workspace.slug, suite.pk, case.pk])
        assert f'<a href="{link}">{case.case_id}</a>' in page.content.decode()


def test_the_card_shows_a_template_a_prompt_file_and_yaml_each_in_its_control(
    client: Client, suite: Suite
) -> None:
    edit_suite_prompts(
        suite,
        [
            PromptRow("template", "{{ input }}"),
            PromptRow("file", "prompts/formal.md"),
            PromptRow("yaml", "id: terse\nraw: x\n"),
        ],
    )

    page = signed_in_as(client, suite.workspace, "editor").get(url("suite_settings", suite))

    html = page.content.decode()
    assert '<label for="prompt-0-text">Prompt 1 (template)</label>' in html
    assert '<label for="prompt-1-text">Prompt 2 (prompt file)</label>' in html
    assert 'name="prompt-1-text" value="prompts/formal.md" list="workspace-files"' in html
    assert '<option value="prompts/formal.md"></option>' in html
    assert '<label for="prompt-2-text">Prompt 3 (YAML)</label>' in html
    assert "id: terse\nraw: x\n</textarea>" in html


def test_a_prompt_added_without_javascript_shows_on_the_page_unsaved(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.post(url("suite_prompts", suite), form(*STORED_ROWS, action="add:file"))

    assert response.status_code == 200
    assert '<label for="prompt-2-text">Prompt 3 (prompt file)</label>' in response.content.decode()
    assert '<h2 id="expanded-heading">' in response.content.decode()
    assert len(stored(suite).document["prompts"]) == 2


def test_a_structural_edit_over_htmx_returns_the_prompts_form_only(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.post(
        url("suite_prompts", suite), form(*STORED_ROWS, action="move:1:up"), HTTP_HX_REQUEST="true"
    )

    html = response.content.decode()
    assert html.lstrip().startswith('<form id="prompts-form"')
    assert html.index("Prompt 1 (YAML)") < html.index("Prompt 2 (template)")
    assert 'id="prompt-0-move-up"' in html and "autofocus" in html
    assert "HX-Request" in response["Vary"]


def test_saving_from_the_page_says_what_changed_and_shows_the_new_count(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.post(
        url("suite_prompts", suite), form(("template", "{{ input }}")), follow=True
    )

    assert response.redirect_chain == [(url("suite_settings", suite), 302)]
    page = response.content.decode()
    assert "Saved the prompts of evals/help.eval.yaml: prompts changed (1 prompt)." in page
    assert "2 cases run as 3 tests" in page


def test_yaml_that_does_not_parse_is_shown_with_what_was_typed(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.post(
        url("suite_prompts", suite), form(("template", "{{ input }}"), ("yaml", "raw: [x\n"))
    )

    assert response.status_code == 422
    page = response.content.decode()
    assert "Prompt 2, line 2: not valid YAML" in page
    assert "raw: [x\n</textarea>" in page
    assert len(stored(suite).document["prompts"]) == 2


def test_a_form_the_page_did_not_make_is_a_bad_request(client: Client, suite: Suite) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.post(url("suite_prompts", suite), {"prompt-count": "1"})

    assert response.status_code == 400


@pytest.mark.parametrize("role", ["reviewer", "viewer"])
def test_reviewers_and_viewers_may_not_edit_the_prompts(
    client: Client, suite: Suite, role: str
) -> None:
    signed_in_as(client, suite.workspace, role)

    shown = client.get(url("suite_settings", suite))
    saved = client.post(url("suite_prompts", suite), form(("template", "{{ input }}")))

    assert (shown.status_code, saved.status_code) == (403, 403)
    assert len(stored(suite).document["prompts"]) == 2


def test_a_suite_of_the_2025_profile_without_prompts_has_no_prompts_card(client: Client) -> None:
    workspace = factories.workspace("Seeds")
    older = factories.suite(workspace, "evals/review.yaml")
    factories.case(older, "case-1")

    page = signed_in_as(client, workspace, "editor").get(url("suite_settings", older))

    assert "prompts-heading" not in page.content.decode()
    assert "expanded-heading" not in page.content.decode()


def test_a_case_whose_list_variable_is_empty_runs_no_test(client: Client, suite: Suite) -> None:
    case = suite.cases.get(case_id="small-talk")
    case.document = {**case.document, "vars": {"input": "Hi", "language": []}}
    case.save()

    page = signed_in_as(client, suite.workspace, "editor").get(url("suite_settings", suite))

    assert "2 cases run as 4 tests" in page.content.decode()
    assert "No test: a list variable is empty." in page.content.decode()


def test_a_thousand_cases_are_counted_in_full_listed_in_part_in_few_queries(
    client: Client, suite: Suite, django_assert_max_num_queries: Any
) -> None:
    template = suite.cases.get(case_id="opening-hours-{{ language }}").document
    Case.objects.bulk_create(
        Case(
            suite=suite,
            position=index + 2,
            case_id=f"hours-{index}",
            document={**template, "id": f"hours-{index}-{{{{ language }}}}"},
        )
        for index in range(1000)
    )
    signed_in_as(client, suite.workspace, "editor")

    with django_assert_max_num_queries(8):
        page = client.get(url("suite_settings", suite)).content.decode()

    assert "1002 cases run as 4006 tests" in page
    assert page.count("<tr>") == 1 + 200
    assert "And 3806 more tests." in page
