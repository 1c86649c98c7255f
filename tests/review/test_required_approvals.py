"""Required approvals: counted from distinct reviewers other than the case's last editor, of the
case as it stands; the rules move cases when they change."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from evals_app.models import Case, ReviewEvent, ReviewRules, ReviewStatus, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.exports.exporting import export_workspace
from evals_app.services.review.approvals import RulesError, set_rules
from evals_app.services.review.workflow import ReviewError, move, waiting_for_review
from tests import factories

pytestmark = pytest.mark.django_db
Action = ReviewEvent.Action


@pytest.fixture
def workspace() -> Workspace:
    workspace = factories.workspace()
    factories.case(factories.suite(workspace), "refund")
    return workspace


def submitted(workspace: Workspace, editor: User, outcome: str = "Escalates.") -> Case:
    case = Case.objects.select_related("suite__workspace").get(case_id="refund")
    case = save_case(case, {**case.document, "outcome": outcome}, case.version, editor)
    move(case, editor, Action.SUBMITTED)
    return case


def require(workspace: Workspace, approvals: int, blind: bool = False) -> None:
    ReviewRules.objects.update_or_create(
        workspace=workspace, defaults={"required_approvals": approvals, "blind": blind}
    )


def test_one_approval_approves_by_default(workspace: Workspace) -> None:
    editor = factories.member(workspace, "editor")
    case = submitted(workspace, editor)

    move(case, factories.member(workspace, "reviewer"), Action.APPROVED)

    assert Case.objects.get(pk=case.pk).status == ReviewStatus.APPROVED


def test_a_case_stays_in_review_until_enough_distinct_reviewers_approve(
    workspace: Workspace,
) -> None:
    require(workspace, 2)
    editor = factories.member(workspace, "editor")
    first, second = (factories.member(workspace, "reviewer", name) for name in ("ann", "bob"))
    case = submitted(workspace, editor)

    move(case, first, Action.APPROVED)
    after_one = Case.objects.get(pk=case.pk).status
    move(case, second, Action.APPROVED)

    assert after_one == ReviewStatus.IN_REVIEW
    assert Case.objects.get(pk=case.pk).status == ReviewStatus.APPROVED


def test_the_same_reviewer_cannot_approve_twice(workspace: Workspace) -> None:
    require(workspace, 2)
    case = submitted(workspace, factories.member(workspace, "editor"))
    reviewer = factories.member(workspace, "reviewer")
    move(case, reviewer, Action.APPROVED)

    with pytest.raises(ReviewError, match="approved this case as it stands already"):
        move(case, reviewer, Action.APPROVED)
    assert Case.objects.get(pk=case.pk).status == ReviewStatus.IN_REVIEW


def test_the_last_editor_cannot_add_an_approval_after_someone_elses(workspace: Workspace) -> None:
    require(workspace, 2)
    owner = factories.member(workspace, "owner")
    case = submitted(workspace, owner)
    move(case, factories.member(workspace, "reviewer"), Action.APPROVED)

    with pytest.raises(ReviewError, match="You changed this case"):
        move(case, owner, Action.APPROVED)


def test_an_edit_in_review_makes_earlier_approvals_not_count(workspace: Workspace) -> None:
    require(workspace, 2)
    editor = factories.member(workspace, "editor")
    first, second = (factories.member(workspace, "reviewer", name) for name in ("ann", "bob"))
    case = submitted(workspace, editor)
    move(case, first, Action.APPROVED)
    case = Case.objects.select_related("suite__workspace").get(pk=case.pk)
    save_case(case, {**case.document, "outcome": "Changed."}, case.version, editor)

    move(case, second, Action.APPROVED)

    assert Case.objects.get(pk=case.pk).status == ReviewStatus.IN_REVIEW


def test_lowering_the_requirement_approves_cases_that_now_have_enough(
    workspace: Workspace,
) -> None:
    require(workspace, 2)
    case = submitted(workspace, factories.member(workspace, "editor"))
    move(case, factories.member(workspace, "reviewer"), Action.APPROVED)

    moved = set_rules(workspace, 1, blind=False)

    assert moved == 1
    assert Case.objects.get(pk=case.pk).status == ReviewStatus.APPROVED
    assert case.review_events.last().action == Action.RULES_CHANGED  # type: ignore[union-attr]


def test_raising_the_requirement_takes_approved_cases_back_to_review(
    workspace: Workspace,
) -> None:
    case = submitted(workspace, factories.member(workspace, "editor"))
    move(case, factories.member(workspace, "reviewer"), Action.APPROVED)

    set_rules(workspace, 3, blind=False)

    assert Case.objects.get(pk=case.pk).status == ReviewStatus.IN_REVIEW


@pytest.mark.parametrize("approvals", [0, 11])
def test_required_approvals_out_of_range_are_refused(workspace: Workspace, approvals: int) -> None:
    with pytest.raises(RulesError, match="from 1 to 10"):
        set_rules(workspace, approvals, blind=False)


def test_approved_only_export_leaves_out_a_case_short_of_approvals(
    workspace: Workspace, tmp_path: object
) -> None:
    require(workspace, 2)
    case = submitted(workspace, factories.member(workspace, "editor"))
    move(case, factories.member(workspace, "reviewer"), Action.APPROVED)

    summary = export_workspace(workspace, tmp_path, approved_only=True)  # type: ignore[arg-type]

    assert summary.cases == 0


def test_the_queue_leaves_out_cases_i_approved_that_wait_for_others(
    workspace: Workspace,
) -> None:
    require(workspace, 2)
    case = submitted(workspace, factories.member(workspace, "editor"))
    first, second = (factories.member(workspace, "reviewer", name) for name in ("ann", "bob"))
    move(case, first, Action.APPROVED)

    assert list(waiting_for_review(first)) == []
    assert list(waiting_for_review(second)) == [case]
