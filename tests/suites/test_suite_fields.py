"""A suite's settings page: owners and editors edit the eval file's top-level fields as YAML
(everything but the list of cases) and switch the profile that formats its cases; both are
checked before they are stored, recorded in the activity feed, and mark the cases' summaries
out of date."""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.eval_files.reading import read_eval_file
from evals_app.eval_files.writing import eval_file_text
from evals_app.models import ActivityRecord, Suite, Workspace
from evals_app.services.exports.exporting import FORMATTED_FILE, export_workspace
from evals_app.services.suites.fields import edit_suite_fields
from tests import factories

pytestmark = pytest.mark.django_db

STORED_FIELDS = """\
$schema: agentv-eval-v2
description: Reviews of pull requests.
target: default
"""


@pytest.fixture
def suite(db: None) -> Suite:
    workspace = factories.workspace("Team evals")
    document = {
        "$schema": "agentv-eval-v2",
        "description": "Reviews of pull requests.",
        "evalcases": [None, None],
        "target": "default",
    }
    suite = factories.suite(workspace, "evals/review.yaml", document=document)
    factories.case(suite, "case-1")
    factories.case(suite, "case-2")
    return suite


def signed_in_as(client: Client, workspace: Workspace, role: str) -> Client:
    client.force_login(factories.member(workspace, role, f"{role}-1"))
    return client


def url(name: str, suite: Suite) -> str:
    return reverse(name, args=[suite.workspace.slug, suite.pk])


def stored(suite: Suite) -> Suite:
    return Suite.objects.get(pk=suite.pk)


def test_the_suite_page_shows_the_description_the_profile_and_for_editors_the_settings(
    client: Client, suite: Suite
) -> None:
    editor = signed_in_as(client, suite.workspace, "editor").get(url("suite_detail", suite))
    viewer = signed_in_as(Client(), suite.workspace, "viewer").get(url("suite_detail", suite))

    for page in (editor.content.decode(), viewer.content.decode()):
        assert '<p class="lead">Reviews of pull requests.</p>' in page
        assert "Formatted by AgentV 2025 (guidelines, `evalcases` files)" in page
    assert url("suite_settings", suite) in editor.content.decode()
    assert url("suite_settings", suite) not in viewer.content.decode()


def test_the_fields_are_shown_as_the_export_writes_them_without_the_cases(
    client: Client, suite: Suite
) -> None:
    response = signed_in_as(client, suite.workspace, "editor").get(url("suite_settings", suite))

    html = unescape(response.content.decode())
    assert response.status_code == 200
    assert f">\n{STORED_FIELDS}</textarea>" in html
    assert '<label for="suite-fields_yaml">Top-level fields (YAML)</label>' in html
    exported = eval_file_text("yaml", suite.document, "evalcases", [{"id": "a"}, {"id": "b"}])
    assert exported.replace("evalcases:\n- id: a\n- id: b\n", "") == STORED_FIELDS


@pytest.mark.usefixtures("tasks_in_the_database")
def test_saving_edits_adds_and_removes_fields_keeping_the_list_of_cases_in_its_place(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "owner")
    typed = (
        "$schema: agentv-eval-v2\n"
        "description: Reviews of pull requests, by language.\n"
        "name: reviews\n"
        "execution:\n  evaluators:\n    - {name: tone, type: llm_judge}\n"
    )

    response = client.post(url("suite_settings", suite), {"fields_yaml": typed})

    assert response.status_code == 302
    assert response["Location"] == url("suite_detail", suite)
    document = stored(suite).document
    # `target` followed the list of cases and is gone: the list goes last, after the new keys.
    assert list(document) == ["$schema", "description", "name", "execution", "evalcases"]
    assert document["evalcases"] == [None, None]
    assert document["execution"] == {"evaluators": [{"name": "tone", "type": "llm_judge"}]}
    # File-level evaluators reach every case that names none: the summaries are recomputed.
    assert factories.summaries_pending(suite)
    page = client.get(response["Location"]).content.decode()
    assert "Reviews of pull requests, by language." in page
    assert (
        "Saved the fields of evals/review.yaml: description changed; name added; "
        "execution added; target removed." in unescape(page)
    )


def test_the_list_of_cases_stays_before_the_field_that_followed_it(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")
    typed = "description: Reviews.\ntarget: other\nname: reviews\n"

    client.post(url("suite_settings", suite), {"fields_yaml": typed})

    assert list(stored(suite).document) == ["description", "evalcases", "target", "name"]


def test_saved_fields_are_exported_and_read_back_with_the_cases(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")
    typed = "description: |\n  Two lines\n  of text.\nscore_ranges: {0: low, 1: high}\n"
    client.post(url("suite_settings", suite), {"fields_yaml": typed})
    suite = stored(suite)

    text = eval_file_text("yaml", suite.document, "evalcases", [{"id": "a"}, {"id": "b"}])

    read = read_eval_file(text)
    assert read.header == suite.document
    assert read.header["score_ranges"] == {0: "low", 1: "high"}
    assert [case["id"] for case in read.cases] == ["a", "b"]


def test_an_empty_text_removes_every_field_but_the_list_of_cases(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")

    client.post(url("suite_settings", suite), {"fields_yaml": ""})

    assert stored(suite).document == {"evalcases": [None, None]}


@pytest.mark.usefixtures("tasks_in_the_database")
def test_saving_the_fields_unchanged_changes_and_records_nothing(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.post(
        url("suite_settings", suite), {"fields_yaml": STORED_FIELDS}, follow=True
    )

    assert "No changes." in response.content.decode()
    assert not ActivityRecord.objects.exists()
    assert not factories.summaries_pending(suite)


def test_changing_a_value_to_one_python_calls_equal_is_still_a_change(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")
    client.post(url("suite_settings", suite), {"fields_yaml": "retries: 1\n"})

    client.post(url("suite_settings", suite), {"fields_yaml": "retries: true\n"})

    assert stored(suite).document["retries"] is True


def test_a_change_of_the_fields_is_recorded_in_the_activity_feed(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")

    client.post(url("suite_settings", suite), {"fields_yaml": "description: New.\n"})

    record = ActivityRecord.objects.get()
    assert record.get_action_display() == "changed the fields of suite"
    assert (record.subject, record.suite) == ("evals/review.yaml", suite)
    assert record.detail == "description changed; $schema removed; target removed"
    feed = client.get(reverse("activity", args=[suite.workspace.slug])).content.decode()
    assert f'changed the fields of suite\n    <a href="{url("suite_detail", suite)}">' in feed


BAD_FIELDS = [
    pytest.param("description: [unclosed\n", "Line 2: not valid YAML", id="not YAML"),
    pytest.param(
        "- description\n- target\n", "Line 1: the fields must be a YAML mapping", id="list"
    ),
    pytest.param("just text\n", "Line 1: the fields must be a YAML mapping", id="a value"),
    pytest.param(
        "description: x\nevalcases: []\n", "Line 2: `evalcases` is a list of cases", id="cases"
    ),
    pytest.param("name: x\ntests: []\n", "Line 2: `tests` is a list of cases", id="other cases"),
    pytest.param("a: 1\na: 2\n", "Line 2: duplicate key &#x27;a&#x27;", id="duplicate key"),
    pytest.param("a: !!python/object x\n", "Line 1: unsupported tag", id="python tag"),
    pytest.param("a: " + "[" * 70 + "]" * 70, "Line 1: nested deeper than", id="too deep"),
    pytest.param(
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n"
            for i in range(7)
        ),
        "aliases expand to more than 1,000,000 nodes",
        id="alias bomb",
    ),
]


@pytest.mark.parametrize(("typed", "message"), BAD_FIELDS)
def test_fields_that_are_not_a_mapping_of_fields_are_refused_with_the_line(
    client: Client, suite: Suite, typed: str, message: str
) -> None:
    signed_in_as(client, suite.workspace, "editor")
    before = stored(suite).document

    response = client.post(url("suite_settings", suite), {"fields_yaml": typed})

    html = response.content.decode()
    assert response.status_code == 422
    assert message in html
    assert 'aria-invalid="true"' in html
    assert stored(suite).document == before
    assert not ActivityRecord.objects.exists()


def test_a_list_file_of_cases_has_no_fields_to_edit(client: Client, suite: Suite) -> None:
    listed = factories.suite(suite.workspace, "evals/cases.jsonl", document={}, file_format="jsonl")
    signed_in_as(client, suite.workspace, "editor")

    shown = client.get(url("suite_settings", listed))
    posted = client.post(url("suite_settings", listed), {"fields_yaml": "description: x\n"})

    assert "This jsonl file holds only its cases" in shown.content.decode()
    assert posted.status_code == 422
    assert stored(listed).document == {}


@pytest.mark.usefixtures("tasks_in_the_database")
def test_switching_the_profile_is_recorded_and_marks_the_summaries_out_of_date(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.post(url("suite_profile", suite), {"profile": "agentv-2026"})

    assert factories.summaries_pending(suite)
    html = unescape(client.get(response["Location"]).content.decode())
    assert stored(suite).profile == "agentv-2026"
    assert "evals/review.yaml is now formatted by AgentV 2026 (today's `tests` files)." in html
    assert "Formatted by AgentV 2026 (today's `tests` files)" in html
    record = ActivityRecord.objects.get()
    assert record.get_action_display() == "changed the profile of suite"
    assert record.detail == "from agentv-2025 to agentv-2026"


@pytest.mark.usefixtures("tasks_in_the_database")
def test_switching_to_the_profile_a_suite_has_changes_nothing(client: Client, suite: Suite) -> None:
    signed_in_as(client, suite.workspace, "editor")

    client.post(url("suite_profile", suite), {"profile": "agentv-2025"})

    assert not ActivityRecord.objects.exists()
    assert not factories.summaries_pending(suite)


def test_an_unknown_profile_is_refused(client: Client, suite: Suite) -> None:
    signed_in_as(client, suite.workspace, "editor")

    response = client.post(url("suite_profile", suite), {"profile": "agentv-1999"})

    assert response.status_code == 422
    assert "Select a valid choice." in response.content.decode()
    assert stored(suite).profile == "agentv-2025"


def test_the_settings_page_says_what_each_profile_changes(client: Client, suite: Suite) -> None:
    response = signed_in_as(client, suite.workspace, "editor").get(url("suite_settings", suite))

    html = unescape(response.content.decode())
    assert "<strong>AgentV 2025</strong>: guideline files" in html
    assert "marked <code><Attached: …></code>" in html
    assert "<strong>AgentV 2026</strong>: today's rules" in html
    assert '<option value="agentv-2025" selected>' in html


def test_the_editor_names_the_profile_the_suite_is_switched_to(
    client: Client, suite: Suite
) -> None:
    signed_in_as(client, suite.workspace, "editor")
    case = suite.cases.get(case_id="case-1")
    editor = reverse("case_editor", args=[suite.workspace.slug, suite.pk, case.pk])

    before = unescape(client.get(editor).content.decode())
    client.post(url("suite_profile", suite), {"profile": "agentv-2026"})
    after = unescape(client.get(editor).content.decode())

    assert "Formatted by AgentV 2025" in before
    assert "Formatted by AgentV 2026 (today's `tests` files)" in after


def test_formatted_jsonl_names_the_profile_a_suite_was_switched_to(
    client: Client, suite: Suite, tmp_path: Path
) -> None:
    signed_in_as(client, suite.workspace, "editor")
    client.post(url("suite_profile", suite), {"profile": "agentv-2026"})

    export_workspace(suite.workspace, tmp_path)

    lines = (tmp_path / suite.workspace.slug / FORMATTED_FILE).read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    assert len(rows) == 4  # two cases, two modes
    assert {row["profile"] for row in rows} == {"agentv-2026"}


@pytest.mark.parametrize("role", ["reviewer", "viewer"])
def test_reviewers_and_viewers_may_not_change_the_settings(
    client: Client, suite: Suite, role: str
) -> None:
    signed_in_as(client, suite.workspace, role)

    shown = client.get(url("suite_settings", suite))
    fields = client.post(url("suite_settings", suite), {"fields_yaml": "description: Mine.\n"})
    profile = client.post(url("suite_profile", suite), {"profile": "agentv-2026"})

    assert (shown.status_code, fields.status_code, profile.status_code) == (403, 403, 403)
    assert stored(suite).document["description"] == "Reviews of pull requests."
    assert stored(suite).profile == "agentv-2025"


def test_the_settings_of_a_suite_of_another_workspace_are_not_found(
    client: Client, suite: Suite
) -> None:
    elsewhere = factories.suite(factories.workspace("Other"), "evals/x.yaml")
    signed_in_as(client, suite.workspace, "owner")

    for name in ("suite_settings", "suite_profile"):
        response = client.post(
            reverse(name, args=[suite.workspace.slug, elsewhere.pk]),
            {"fields_yaml": "description: x\n", "profile": "agentv-2026"},
        )
        assert response.status_code == 404
    assert stored(elsewhere).profile == "agentv-2025"


@pytest.mark.parametrize("name", ["suite_settings", "suite_profile"])
def test_settings_changes_need_the_csrf_token(suite: Suite, name: str) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.member(suite.workspace, "owner"))

    response = client.post(
        url(name, suite), {"fields_yaml": "description: Forged.\n", "profile": "agentv-2026"}
    )

    assert response.status_code == 403
    assert stored(suite).document["description"] == "Reviews of pull requests."
    assert stored(suite).profile == "agentv-2025"


@pytest.mark.usefixtures("tasks_in_the_database")
def test_editing_the_fields_marks_the_summaries_of_a_file_of_cases_it_refers_to(
    suite: Suite,
) -> None:
    listed = factories.suite(
        suite.workspace, "evals/more.jsonl", file_format="jsonl", referenced_by=suite.path
    )
    factories.case(listed, "listed-1")

    edit_suite_fields(suite, "description: Its fields reach the listed cases too.\n")

    assert factories.summaries_pending(listed)
