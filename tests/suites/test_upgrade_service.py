"""Upgrading stored suites: the plan writes nothing; applying it makes revisions, dismisses
approvals, rewrites or copies judge templates, and records the upgrade."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals_app.eval_files.case_parts import split_case
from evals_app.models import ActivityRecord, Case, ReviewEvent, ReviewStatus, Workspace
from evals_app.services.suites.upgrade import (
    REVISION_SUMMARY,
    UpgradeError,
    older_suites,
    plan_upgrade,
    upgrade_suites,
)
from tests.factories import database_snapshot, imported_workspace, member, suite

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "upgrade"


@pytest.fixture
def workspace() -> Workspace:
    return imported_workspace(FIXTURES, "Older files")


def test_older_suites_are_those_written_for_an_older_agentv(workspace: Workspace) -> None:
    assert [s.path for s in older_suites(workspace)] == [
        "evals/cases.yaml",
        "evals/december.yaml",
        "evals/eval-cases.yaml",
        "evals/seeds.yaml",
        "evals/tests-early.yaml",
    ]


def test_the_plan_shows_each_case_before_and_after_and_writes_nothing(
    workspace: Workspace,
) -> None:
    before = database_snapshot()

    plan = plan_upgrade(workspace, older_suites(workspace))

    assert database_snapshot() == before
    seeds = next(s for s in plan.suites if s.suite.path == "evals/seeds.yaml")
    order = seeds.cases[0]
    assert "input_messages:" in order.yaml_before and "input_messages:" not in order.yaml_after
    assert "vars:\n  input:" in order.yaml_after
    assert "Where is my order 1042?" in order.question_before
    assert "plain English" not in order.question_before  # the guideline went apart
    assert order.guidelines_inline
    assert [c.case.case_id for c in seeds.guideline_cases] == ["order-status"]
    assert "evalcases:" in seeds.header_yaml_before and "tests:" in seeds.header_yaml_after


def test_the_plan_formats_each_test_after_by_todays_rules_and_says_what_they_warn(
    workspace: Workspace,
) -> None:
    plan = plan_upgrade(workspace, older_suites(workspace))

    seeds = next(s for s in plan.suites if s.suite.path == "evals/seeds.yaml")
    order = seeds.cases[0]
    assert "plain English" in order.question_after  # the guideline's text, inline
    # The 2025 judge got the expected answer as its reference; today's template does not.
    assert any(
        "{{expected_output}} in the judge prompt of llm-rubric (tone) is empty" in warning
        for warning in order.warnings_after
    )


def test_a_template_only_upgraded_suites_use_is_changed_in_place(workspace: Workspace) -> None:
    plan = plan_upgrade(workspace, older_suites(workspace))

    grade = next(t for t in plan.templates if t.source == "judges/grade.md")
    assert not grade.copied
    assert grade.after.endswith("[[ ## answer ## ]]\n{{output}}\n")


def test_a_template_another_suite_uses_is_copied_and_the_copy_referred_to(
    workspace: Workspace,
) -> None:
    plan = plan_upgrade(workspace, older_suites(workspace))

    shared = next(t for t in plan.templates if t.source == "judges/shared.md")
    assert shared.path == "judges/shared.v2026.md"  # evals/today.yaml uses the original
    assert "Answer: {{output}}" in shared.after
    refund = next(c for s in plan.suites for c in s.cases if c.case.case_id == "refund")
    assert refund.after["assert"][0]["prompt"] == "file://judges/shared.v2026.md"


def test_upgrading_makes_a_revision_of_each_changed_case(workspace: Workspace) -> None:
    alice = member(workspace, "editor", "alice")
    seeds = workspace.suites.get(path="evals/seeds.yaml")

    upgrade_suites(workspace, [seeds], alice)

    case = Case.objects.get(suite=seeds, case_id="order-status")
    assert split_case(case.document).spelling.input_path == ("vars", "input")
    assert [(r.summary, r.author) for r in case.revisions.order_by("number")] == [
        ("as imported", None),
        (REVISION_SUMMARY, alice),
    ]
    seeds.refresh_from_db()
    assert (seeds.cases_key, seeds.profile) == ("tests", "agentv-2026")
    assert "$schema" not in seeds.document and seeds.document["prompts"] == ["{{ input }}"]


def test_upgrading_an_approved_case_dismisses_its_approval(workspace: Workspace) -> None:
    alice = member(workspace, "editor", "alice")
    seeds = workspace.suites.get(path="evals/seeds.yaml")
    seeds.cases.filter(case_id="refund").update(status=ReviewStatus.APPROVED)

    upgrade_suites(workspace, [seeds], alice)

    refund = seeds.cases.get(case_id="refund")
    assert refund.status == ReviewStatus.IN_REVIEW
    dismissal = ReviewEvent.objects.get(case=refund)
    assert (dismissal.action, dismissal.actor) == (ReviewEvent.Action.APPROVAL_DISMISSED, alice)


def test_upgrading_writes_templates_and_records_the_upgrade(workspace: Workspace) -> None:
    alice = member(workspace, "owner", "alice")
    shared_before = workspace.files.get(path="judges/shared.md").text
    older = [s.path for s in older_suites(workspace)]

    upgrade_suites(workspace, older_suites(workspace), alice)

    assert workspace.files.get(path="judges/shared.md").text == shared_before
    assert "{{output}}" in workspace.files.get(path="judges/shared.v2026.md").text
    assert "{{output}}" in workspace.files.get(path="judges/grade.md").text
    records = ActivityRecord.objects.filter(action=ActivityRecord.Action.SUITE_UPGRADED)
    assert sorted(r.subject for r in records) == older
    assert older_suites(workspace) == []


def test_upgrading_twice_changes_nothing_more(workspace: Workspace) -> None:
    older = older_suites(workspace)
    upgrade_suites(workspace, older, None)
    before = database_snapshot()

    plan = upgrade_suites(workspace, older, None)

    assert all(not s.changed_cases for s in plan.suites)
    assert plan.templates == []
    assert {k: v for k, v in database_snapshot().items() if k != "Suite"} == {
        k: v for k, v in before.items() if k != "Suite"
    }


def test_a_csv_file_of_cases_is_not_upgraded(workspace: Workspace) -> None:
    csv = suite(workspace, "evals/rows.csv", file_format="csv", document={})

    with pytest.raises(UpgradeError, match="read-only"):
        plan_upgrade(workspace, [csv])
