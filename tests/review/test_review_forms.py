"""Review forms: owners define the criteria, reviewers answer them with a decision, the suite
page shows and filters the scores, the workspace page counts them; blind review hides them."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from evals_app.models import (
    Case,
    CaseReview,
    ReviewCriterion,
    ReviewEvent,
    ReviewRules,
    ReviewStatus,
    Workspace,
)
from evals_app.services.review.criteria import CriterionError, add_criterion, change_criterion
from evals_app.services.review.workflow import move
from tests import factories

pytestmark = pytest.mark.django_db
Action = ReviewEvent.Action
Kind = ReviewCriterion.Kind


@pytest.fixture
def workspace() -> Workspace:
    workspace = factories.workspace()
    suite = factories.suite(workspace)
    for number in range(3):
        factories.case(suite, ["alpha", "bravo", "charlie"][number], status=ReviewStatus.IN_REVIEW)
    return workspace


@pytest.fixture
def criteria(workspace: Workspace) -> dict[str, ReviewCriterion]:
    return {
        "correct": add_criterion(workspace, "Correct", Kind.PASS_FAIL, "Is the expected right?"),
        "clear": add_criterion(workspace, "Clear", Kind.SCALE),
        "problem": add_criterion(workspace, "Problem", Kind.LABEL, labels="ambiguous\nleaks"),
        "notes": add_criterion(workspace, "Notes", Kind.TEXT),
    }


def signed_in(account: User) -> Client:
    client = Client()
    client.force_login(account)
    return client


def the_case(case_id: str = "alpha") -> Case:
    return Case.objects.select_related("suite__workspace").get(case_id=case_id)


def review_url(case: Case) -> str:
    return reverse("case_review", args=[case.suite.workspace.slug, case.suite_id, case.pk])


def scored(
    case: Case, reviewer: User, criteria: dict[str, ReviewCriterion], **answers: str
) -> None:
    move(case, reviewer, Action.APPROVED, answers={criteria[k].pk: v for k, v in answers.items()})


def test_owner_adds_a_criterion_of_each_kind_on_the_settings_page(workspace: Workspace) -> None:
    owner = signed_in(factories.member(workspace, "owner"))
    url = reverse("criterion_add", args=[workspace.slug])

    for name, kind in [("Correct", "pass_fail"), ("Clear", "scale"), ("Notes", "text")]:
        owner.post(url, {"name": name, "kind": kind, "help_text": f"About {name}"})
    owner.post(url, {"name": "Problem", "kind": "label", "labels": "ambiguous\nleaks the answer"})
    page = owner.get(reverse("workspace_settings", args=[workspace.slug])).content.decode()

    stored = list(ReviewCriterion.objects.values_list("name", "kind", "labels"))
    assert stored == [
        ("Correct", "pass_fail", []),
        ("Clear", "scale", []),
        ("Notes", "text", []),
        ("Problem", "label", ["ambiguous", "leaks the answer"]),
    ]
    assert "About Clear" in page


@pytest.mark.parametrize(
    ("name", "kind", "labels", "error"),
    [
        ("", "scale", "", "needs a name"),
        ("Problem", "label", "only one", "at least two labels"),
        ("Clear", "colour", "", "what kind of answer"),
    ],
)
def test_a_criterion_that_cannot_be_one_is_refused_with_the_reason(
    workspace: Workspace, name: str, kind: str, labels: str, error: str
) -> None:
    with pytest.raises(CriterionError, match=error):
        add_criterion(workspace, name, kind, labels=labels)


def test_two_criteria_cannot_share_a_name(workspace: Workspace) -> None:
    add_criterion(workspace, "Clear", Kind.SCALE)

    with pytest.raises(CriterionError, match="already has a criterion named Clear"):
        add_criterion(workspace, "Clear", Kind.PASS_FAIL)


def test_a_label_that_reviews_chose_cannot_be_removed(
    workspace: Workspace, criteria: dict[str, ReviewCriterion]
) -> None:
    scored(the_case(), factories.member(workspace, "reviewer"), criteria, problem="leaks")

    with pytest.raises(CriterionError, match="leaks"):
        change_criterion(criteria["problem"], "Problem", labels="ambiguous\nvague")


def test_reviewer_approves_with_answers_to_the_form(
    workspace: Workspace, criteria: dict[str, ReviewCriterion]
) -> None:
    reviewer = signed_in(factories.member(workspace, "reviewer"))
    case = the_case()

    reviewer.post(
        review_url(case),
        {
            "step": "approve",
            f"score-{criteria['correct'].pk}": "pass",
            f"score-{criteria['clear'].pk}": "4",
            f"score-{criteria['problem'].pk}": "",
            f"score-{criteria['notes'].pk}": "Fine.\r\nShort.",
        },
    )

    review = CaseReview.objects.get()
    assert review.decision == Action.APPROVED
    assert list(review.scores.values_list("criterion__name", "value")) == [
        ("Correct", "pass"),
        ("Clear", "4"),
        ("Notes", "Fine.\nShort."),
    ]


def test_an_answer_the_criterion_does_not_allow_is_refused_and_nothing_recorded(
    workspace: Workspace, criteria: dict[str, ReviewCriterion]
) -> None:
    reviewer = signed_in(factories.member(workspace, "reviewer"))
    case = the_case()

    response = reviewer.post(
        review_url(case),
        {"step": "approve", f"score-{criteria['clear'].pk}": "9"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 422
    assert "Clear: &#x27;9&#x27; is not one of 1, 2, 3, 4, 5" in response.content.decode()
    assert not CaseReview.objects.exists()
    assert the_case().status == ReviewStatus.IN_REVIEW


def test_the_editor_offers_the_form_to_reviewers(
    workspace: Workspace, criteria: dict[str, ReviewCriterion]
) -> None:
    reviewer = signed_in(factories.member(workspace, "reviewer"))
    case = the_case()

    page = reviewer.get(
        reverse("case_editor", args=[workspace.slug, case.suite_id, case.pk])
    ).content.decode()

    assert f'name="score-{criteria["clear"].pk}" value="5"' in page
    assert "Is the expected right?" in page
    assert "data-scale" in page


def test_suite_page_shows_each_cases_scores_and_filters_by_them(
    workspace: Workspace, criteria: dict[str, ReviewCriterion]
) -> None:
    ann, bob = (factories.member(workspace, "reviewer", name) for name in ("ann", "bob"))
    scored(the_case("alpha"), ann, criteria, correct="fail", clear="2")
    scored(the_case("bravo"), bob, criteria, correct="pass", clear="5")
    suite = the_case().suite
    url = reverse("suite_detail", args=[workspace.slug, suite.pk])
    owner = signed_in(factories.member(workspace, "owner"))

    everything = owner.get(url).content.decode()
    failed = owner.get(url, {"score": f"{criteria['correct'].pk}:fail"}).content.decode()

    assert "Correct: fail" in everything and "Clear: 5" in everything
    assert "alpha" in failed and "bravo" not in failed and "charlie" not in failed
    assert "scored “fail”" in failed


def test_workspace_page_shows_each_criterions_distribution(
    workspace: Workspace, criteria: dict[str, ReviewCriterion]
) -> None:
    ann, bob = (factories.member(workspace, "reviewer", name) for name in ("ann", "bob"))
    scored(the_case("alpha"), ann, criteria, correct="fail")
    scored(the_case("bravo"), ann, criteria, correct="pass")
    scored(the_case("charlie"), bob, criteria, correct="pass")
    owner = signed_in(factories.member(workspace, "owner"))

    page = owner.get(reverse("workspace_detail", args=[workspace.slug])).content.decode()

    assert 'aria-label="pass: 2 of 3"' in page
    assert 'aria-label="fail: 1 of 3"' in page


def test_workspace_page_shows_agreement_over_cases_reviewed_twice(
    workspace: Workspace, criteria: dict[str, ReviewCriterion]
) -> None:
    ReviewRules.objects.create(workspace=workspace, required_approvals=2)
    ann, bob = (factories.member(workspace, "reviewer", name) for name in ("ann", "bob"))
    # Two cases, both approved by both; "Correct": agree on one, differ on the other.
    for case_id, bob_says in (("alpha", "pass"), ("bravo", "fail")):
        scored(the_case(case_id), ann, criteria, correct="pass")
        scored(the_case(case_id), bob, criteria, correct=bob_says)
    owner = signed_in(factories.member(workspace, "owner"))

    page = owner.get(reverse("workspace_detail", args=[workspace.slug])).content.decode()

    assert "Decision (approve or request changes)" in page
    assert "50%" in page  # Correct: one case of two agreed
    assert "bravo</a>" in page  # contested, listed under its author


def blind_workspace(workspace: Workspace, criteria: dict[str, ReviewCriterion]) -> User:
    """A blind workspace where quinn approved alpha scoring it "fail"; bob has not reviewed."""
    ReviewRules.objects.create(workspace=workspace, required_approvals=2, blind=True)
    quinn = factories.member(workspace, "reviewer", "quinn")
    scored(the_case(), quinn, criteria, correct="fail")
    return factories.member(workspace, "reviewer", "bob")


def test_a_blind_reviewer_sees_no_other_review_before_giving_theirs(
    workspace: Workspace, criteria: dict[str, ReviewCriterion]
) -> None:
    bob = signed_in(blind_workspace(workspace, criteria))
    case = the_case()

    editor = bob.get(
        reverse("case_editor", args=[workspace.slug, case.suite_id, case.pk])
    ).content.decode()
    suite = bob.get(reverse("suite_detail", args=[workspace.slug, case.suite_id])).content.decode()

    for page in (editor, suite):
        assert "Correct: fail" not in page
        assert "quinn" not in page
    assert "Blind review" in editor
    assert "hidden until you review" in suite


def test_a_blind_reviewer_cannot_filter_by_others_scores(
    workspace: Workspace, criteria: dict[str, ReviewCriterion]
) -> None:
    bob = signed_in(blind_workspace(workspace, criteria))
    url = reverse("suite_detail", args=[workspace.slug, the_case().suite_id])

    page = bob.get(url, {"score": f"{criteria['correct'].pk}:fail"}).content.decode()

    assert "bravo" in page and "charlie" in page
    assert 'id="list-score"' not in page


def test_a_blind_reviewer_sees_the_others_once_they_reviewed(
    workspace: Workspace, criteria: dict[str, ReviewCriterion]
) -> None:
    bob = blind_workspace(workspace, criteria)
    case = the_case()
    scored(case, bob, criteria, correct="pass")

    editor = (
        signed_in(bob)
        .get(reverse("case_editor", args=[workspace.slug, case.suite_id, case.pk]))
        .content.decode()
    )

    assert "Correct: fail" in editor and "Correct: pass" in editor


def test_a_blind_reviewers_workspace_page_counts_only_the_cases_they_reviewed(
    workspace: Workspace, criteria: dict[str, ReviewCriterion]
) -> None:
    bob = blind_workspace(workspace, criteria)
    ReviewRules.objects.filter(workspace=workspace).update(required_approvals=3)
    scored(the_case(), factories.member(workspace, "reviewer", "kim"), criteria, correct="pass")
    page = reverse("workspace_detail", args=[workspace.slug])

    editor = signed_in(factories.member(workspace, "editor")).get(page).content.decode()
    before = signed_in(bob).get(page).content.decode()
    scored(the_case(), bob, criteria, correct="pass")
    after = signed_in(bob).get(page).content.decode()

    assert 'aria-label="fail: 0 of 0"' in before
    assert "No case has two reviews yet" in before
    assert 'aria-label="fail: 1 of 3"' in after and 'aria-label="pass: 2 of 3"' in after
    assert 'aria-label="fail: 1 of 2"' in editor


def test_editors_are_not_blind(workspace: Workspace, criteria: dict[str, ReviewCriterion]) -> None:
    blind_workspace(workspace, criteria)
    editor = signed_in(factories.member(workspace, "editor"))
    case = the_case()

    page = editor.get(
        reverse("case_editor", args=[workspace.slug, case.suite_id, case.pk])
    ).content.decode()

    assert "Correct: fail" in page


def test_owner_sets_the_review_rules(workspace: Workspace) -> None:
    owner = signed_in(factories.member(workspace, "owner"))

    owner.post(
        reverse("review_rules", args=[workspace.slug]), {"required_approvals": "3", "blind": "on"}
    )
    refused = owner.post(
        reverse("review_rules", args=[workspace.slug]), {"required_approvals": "x"}, follow=True
    )

    rules = ReviewRules.objects.get(workspace=workspace)
    assert (rules.required_approvals, rules.blind) == (3, True)
    assert "a whole number from 1 to 10" in refused.content.decode()


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize("page", ["suite_detail", "workspace_detail", "case_editor"])
def test_pages_use_as_many_queries_for_many_reviews_as_for_one(
    workspace: Workspace, criteria: dict[str, ReviewCriterion], page: str
) -> None:
    ReviewRules.objects.create(workspace=workspace, required_approvals=10)
    owner = signed_in(factories.member(workspace, "owner"))
    case = the_case()
    args: dict[str, list[Any]] = {
        "suite_detail": [workspace.slug, case.suite_id],
        "workspace_detail": [workspace.slug],
        "case_editor": [workspace.slug, case.suite_id, case.pk],
    }
    url = reverse(page, args=args[page])
    # Two reviews to start with: agreement is figured from cases reviewed twice.
    for name in ("first", "second"):
        reviewer = factories.member(workspace, "reviewer", name)
        scored(case, reviewer, criteria, correct="pass", clear="3")
    queries(owner, url)  # the first view may refresh summaries
    one = queries(owner, url)
    for number in range(1, 6):
        reviewer = factories.member(workspace, "reviewer", f"r{number}")
        for case_id in ("alpha", "bravo", "charlie"):
            scored(the_case(case_id), reviewer, criteria, correct="fail", clear="4")

    assert queries(owner, url) == one
