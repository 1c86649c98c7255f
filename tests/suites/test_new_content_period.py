"""New content in the suite's own period (docs/user-guide.md, "Workspaces and suites" and "The
suite page"): a suite made in the browser is today's unless another of the workspace's periods
is chosen, Add case writes only keys the suite's AgentV reads, and Paste YAML shows the suite's
spelling."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.eval_files.writing import eval_file_text
from evals_app.eval_files.yaml_loader import load_yaml
from evals_app.models import Suite, Workspace
from evals_app.services.cases.list_changes import create_case
from evals_app.services.profiles import profile_of
from tests import factories
from tests.agentv_rejections import rejected_keys

pytestmark = pytest.mark.django_db


def _new_suite(client: Client, workspace: Workspace, **fields: str) -> Suite:
    url = reverse("suite_create", args=[workspace.slug])
    response = client.post(url, {"path": "evals/new.yaml", **fields})
    assert response.status_code == 302
    return workspace.suites.get(path="evals/new.yaml")


def _today_suite(workspace: Workspace, *cases: dict[str, Any]) -> Suite:
    suite = factories.suite(
        workspace, "evals/today.yaml", document={"prompts": ["{{ input }}"], "tests": []}
    )
    suite.cases_key, suite.profile = "tests", "agentv-2026"
    suite.save()
    for position, document in enumerate(cases):
        suite.cases.create(position=position, case_id=document["id"], document=document)
    return suite


def test_a_suite_made_in_the_browser_is_written_in_todays_format(signed_in: Client) -> None:
    workspace = factories.workspace()

    suite = _new_suite(signed_in, workspace)

    assert profile_of(suite).word == "2026"
    text = eval_file_text(suite.file_format, suite.document, suite.cases_key, [])
    assert text == "prompts:\n- '{{ input }}'\ntests: []\n"


def test_the_new_suite_form_offers_todays_format_first_and_the_workspaces_other_periods(
    signed_in: Client,
) -> None:
    workspace = factories.workspace()
    factories.suite(workspace, "evals/old.yaml")  # a 2025 suite

    html = signed_in.get(reverse("workspace_detail", args=[workspace.slug])).content.decode()

    assert '<label for="new-suite-profile">Format</label>' in html
    first, second = (
        html.index('value="agentv-2026" selected'),
        html.index('value="agentv-2025"'),
    )
    assert first < second


def test_a_workspace_without_older_suites_offers_only_todays_format(signed_in: Client) -> None:
    workspace = factories.workspace()

    html = signed_in.get(reverse("workspace_detail", args=[workspace.slug])).content.decode()

    assert 'value="agentv-2025"' not in html


def test_a_suite_may_be_made_in_another_period_of_the_workspace(signed_in: Client) -> None:
    workspace = factories.workspace()
    factories.suite(workspace, "evals/old.yaml")

    suite = _new_suite(signed_in, workspace, profile="agentv-2025")

    assert profile_of(suite).word == "2025"
    assert suite.document == {"$schema": "agentv-eval-v2", "evalcases": []}


def test_a_period_the_workspace_does_not_use_is_refused_with_a_message(
    signed_in: Client,
) -> None:
    workspace = factories.workspace()
    url = reverse("suite_create", args=[workspace.slug])

    response = signed_in.post(url, {"path": "evals/new.yaml", "profile": "agentv-2025"})

    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    assert not workspace.suites.exists()


@pytest.mark.parametrize(
    "first",
    [
        pytest.param(None, id="empty suite"),
        pytest.param(
            {"id": "no-criteria", "vars": {"input": "Hi"}, "assert": ["Greets back"]},
            id="first test without criteria",
        ),
        pytest.param(
            {"id": "with-criteria", "criteria": "Greets", "vars": {"input": "Hi"}},
            id="first test with criteria",
        ),
    ],
)
def test_add_case_in_a_tests_suite_writes_criteria_and_no_key_todays_agentv_refuses(
    first: dict[str, Any] | None,
) -> None:
    suite = _today_suite(factories.workspace(), *([first] if first else []))

    case = create_case(suite, "new-one")

    assert "outcome" not in case.document
    assert case.document["criteria"] == ""
    assert case.document["vars"] == {"input": [{"role": "user", "content": ""}]}
    assert rejected_keys(suite.document, [case.document]) == []


def test_the_editor_labels_a_new_tests_case_field_criteria(signed_in: Client) -> None:
    workspace = factories.workspace()
    suite = _today_suite(workspace, {"id": "first", "vars": {"input": "Hi"}, "assert": ["x"]})
    case = create_case(suite, "new-one")

    html = signed_in.get(
        reverse("case_editor", args=[workspace.slug, suite.pk, case.pk])
    ).content.decode()

    assert 'Criteria <code class="key">criteria</code></label>' in html


def test_paste_yaml_shows_the_spelling_and_an_example_of_a_tests_suite(
    signed_in: Client,
) -> None:
    workspace = factories.workspace()
    suite = _today_suite(workspace)

    html = signed_in.get(reverse("case_paste", args=[workspace.slug, suite.pk])).content.decode()

    assert "<code>id</code>, <code>criteria</code> and <code>vars.input</code>" in html
    assert "outcome" not in html
    example = html.split('id="paste-example">\n', 1)[1].split("</pre>", 1)[0]
    assert "criteria: Names Paris as the capital of France." in example
    assert "  input:" in example


def test_paste_yaml_shows_the_spelling_of_a_2025_suite(signed_in: Client) -> None:
    workspace = factories.workspace()
    suite = factories.suite(workspace)

    html = signed_in.get(reverse("case_paste", args=[workspace.slug, suite.pk])).content.decode()

    assert "<code>id</code>, <code>outcome</code> and <code>input_messages</code>" in html


@pytest.mark.parametrize("period", ["2025", "2026"])
def test_the_paste_example_pastes_as_a_case_of_its_suite(signed_in: Client, period: str) -> None:
    workspace = factories.workspace()
    suite = _today_suite(workspace) if period == "2026" else factories.suite(workspace)
    url = reverse("case_paste", args=[workspace.slug, suite.pk])
    html = signed_in.get(url).content.decode()
    example = html.split('id="paste-example">\n', 1)[1].split("</pre>", 1)[0]
    source = example.replace("&#x27;", "'").replace("&quot;", '"')

    response = signed_in.post(url, {"yaml": source})

    assert response.status_code == 302
    case = suite.cases.get(case_id="capital-of-france")
    assert case.document == load_yaml(source).data
