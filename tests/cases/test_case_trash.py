"""A deleted case goes to its workspace's Deleted list and comes back whole: its review data and
history, at its place, for AGENTV_TRASH_DAYS days (services/cases/trash.py)."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.db import models
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from evals_app.models import (
    ActivityRecord,
    Case,
    CaseReview,
    DeletedCase,
    Notification,
    ReviewAssignment,
    ReviewCriterion,
    ReviewEvent,
    ReviewScore,
    Suggestion,
    Suite,
)
from evals_app.services.cases.bulk import delete_cases
from evals_app.services.cases.list_changes import delete_case, move_case
from evals_app.services.cases.trash import KEPT, LINKED, RestoreError, deleted_cases, restore
from evals_app.services.cases.workspace_search import search_workspace
from evals_app.services.review.assignments import assign_cases
from evals_app.services.review.comments import start_thread
from evals_app.services.review.suggestions import suggest
from evals_app.services.review.workflow import move
from tests import factories

pytestmark = pytest.mark.django_db
numbers = itertools.count()


def reviewed_suite() -> tuple[Suite, Case]:
    """A suite of three cases whose middle one has every kind of review data."""
    workspace = factories.workspace(f"Trash {next(numbers)}")
    suite = factories.suite(workspace)
    factories.case(suite, "one")
    case = factories.case(suite, "two")
    factories.case(suite, "three")
    editor = factories.member(workspace, "editor", f"ed-{workspace.slug}")
    reviewer = factories.member(workspace, "reviewer", f"rev-{workspace.slug}")
    criterion = ReviewCriterion.objects.create(
        workspace=workspace, position=0, name="Correct", kind=ReviewCriterion.Kind.PASS_FAIL
    )
    factories.revision(case, editor, outcome="Answers exactly.")
    move(case, editor, ReviewEvent.Action.SUBMITTED)
    move(case, reviewer, ReviewEvent.Action.APPROVED, answers={criterion.pk: "pass"})
    start_thread(case, reviewer, f"@{editor.username} which order?", "input", 0)
    document = {**Case.objects.get(pk=case.pk).document, "outcome": "Names the order."}
    suggest(case, reviewer, document, Case.objects.get(pk=case.pk).version, "Like this.")
    assign_cases(suite, [case.pk], [reviewer.pk], editor)
    return suite, Case.objects.get(pk=case.pk)


def rows_of(case_pk: int) -> dict[str, list[tuple[Any, ...]]]:
    """Every row that belongs to the case, as stored."""
    rows: dict[str, list[tuple[Any, ...]]] = {}
    for model in KEPT:
        if model is Case:
            found = model.objects.filter(pk=case_pk)
        elif model is ReviewScore:
            found = model.objects.filter(review__case_id=case_pk)
        elif model.__name__ == "Comment":
            found = model.objects.filter(thread__case_id=case_pk)
        else:
            found = model.objects.filter(case_id=case_pk)
        rows[model.__name__] = sorted(found.values_list(), key=repr)
    return rows


def test_a_deleted_case_comes_back_with_its_history_and_review_data() -> None:
    suite, case = reviewed_suite()
    before = rows_of(case.pk)
    assert all(before[name] for name in ("Revision", "CaseReview", "ReviewScore", "Suggestion"))
    batch = delete_case(case)
    assert rows_of(case.pk) == {model.__name__: [] for model in KEPT}
    assert list(suite.cases.values_list("case_id", flat=True)) == ["one", "three"]

    restored = restore(suite.workspace, None, batch=batch)

    assert restored.case_ids == ["two"]
    after = rows_of(case.pk)
    assert {name: rows for name, rows in after.items() if name != "Case"} == {
        name: rows for name, rows in before.items() if name != "Case"
    }
    back = Case.objects.get(pk=case.pk)
    assert (back.position, back.document, back.status, back.version, back.updated_at) == (
        case.position,
        case.document,
        case.status,
        case.version,
        case.updated_at,
    )
    assert list(suite.cases.values_list("case_id", flat=True)) == ["one", "two", "three"]
    assert not DeletedCase.objects.exists()


def test_the_activity_that_named_a_deleted_case_links_it_again_once_restored() -> None:
    suite, case = reviewed_suite()
    move_case(case, "up")
    moved = ActivityRecord.objects.get(action=ActivityRecord.Action.CASE_MOVED)
    batch = delete_case(Case.objects.get(pk=case.pk))
    assert ActivityRecord.objects.get(pk=moved.pk).case_id is None
    restore(suite.workspace, None, batch=batch)
    assert ActivityRecord.objects.get(pk=moved.pk).case_id == case.pk
    restored = ActivityRecord.objects.get(action=ActivityRecord.Action.CASE_RESTORED)
    assert (restored.subject, restored.case_id) == ("two", case.pk)


def test_a_restored_case_whose_place_was_taken_goes_to_the_end() -> None:
    suite, case = reviewed_suite()
    batch = delete_case(case)
    Case.objects.filter(suite=suite, case_id="three").update(position=case.position)
    restore(suite.workspace, None, batch=batch)
    assert list(suite.cases.values_list("case_id", flat=True)) == ["one", "three", "two"]


def test_a_restore_is_refused_when_the_suite_has_a_case_with_its_id_again() -> None:
    suite, case = reviewed_suite()
    batch = delete_case(case)
    factories.case(suite, "two")
    with pytest.raises(RestoreError, match="already has a case with id 'two'"):
        restore(suite.workspace, None, batch=batch)
    assert DeletedCase.objects.filter(case_id="two").exists()


def test_undoing_a_bulk_deletion_restores_every_case_of_it() -> None:
    suite, _ = reviewed_suite()
    pks = list(suite.cases.values_list("pk", flat=True))
    result = delete_cases(suite, pks[:2])
    assert result.done == ["one", "two"] and result.undo
    assert list(suite.cases.values_list("case_id", flat=True)) == ["three"]
    restored = restore(suite.workspace, None, batch=result.undo)
    assert restored.case_ids == ["one", "two"]
    assert list(suite.cases.values_list("case_id", flat=True)) == ["one", "two", "three"]


def test_one_case_of_a_bulk_deletion_is_restored_alone_from_the_deleted_list() -> None:
    suite, _ = reviewed_suite()
    delete_cases(suite, list(suite.cases.values_list("pk", flat=True)))
    record = deleted_cases(suite.workspace).get(case_id="three")
    restore(suite.workspace, None, pk=record.pk)
    assert list(suite.cases.values_list("case_id", flat=True)) == ["three"]
    assert sorted(deleted_cases(suite.workspace).values_list("case_id", flat=True)) == [
        "one",
        "two",
    ]


def test_rows_that_point_at_an_account_deleted_meanwhile_lose_that_link() -> None:
    suite, case = reviewed_suite()
    reviewer = CaseReview.objects.get(case=case).reviewer
    assert reviewer is not None
    batch = delete_case(case)
    reviewer.delete()
    restore(suite.workspace, None, batch=batch)
    # SET_NULL links are cleared, CASCADE rows (the reviewer's assignment) stay gone.
    assert CaseReview.objects.get(case_id=case.pk).reviewer_id is None
    assert Suggestion.objects.get(case_id=case.pk).author_id is None
    assert not ReviewAssignment.objects.filter(case_id=case.pk).exists()
    assert ReviewScore.objects.filter(review__case_id=case.pk).count() == 1


@override_settings(AGENTV_TRASH_DAYS=30)
def test_a_case_deleted_longer_ago_than_the_window_is_not_listed_and_is_purged() -> None:
    suite, case = reviewed_suite()
    delete_case(case)
    DeletedCase.objects.update(deleted_at=timezone.now() - timedelta(days=31))
    assert not deleted_cases(suite.workspace).exists()
    record = DeletedCase.objects.get()
    with pytest.raises(RestoreError, match="no longer in the Deleted list"):
        restore(suite.workspace, None, pk=record.pk)
    delete_case(suite.cases.get(case_id="one"))  # the next deletion purges it
    assert list(DeletedCase.objects.values_list("case_id", flat=True)) == ["one"]


def test_every_row_that_points_at_a_case_is_kept_or_linked_again() -> None:
    """A new model that belongs to a case must be kept by the trash (KEPT) or relinked
    (LINKED): otherwise a restore would silently lose it."""
    kept = set(KEPT)
    linked = {model for model, _ in LINKED.values()}
    for relation in Case._meta.related_objects:
        model = relation.related_model
        assert isinstance(model, type) and issubclass(model, models.Model)
        if relation.on_delete is models.SET_NULL:
            assert model in linked, model.__name__
        else:
            assert model in kept, model.__name__
    assert Notification in kept


def test_the_activity_of_a_deletion_leads_to_the_deleted_cases() -> None:
    suite, case = reviewed_suite()
    delete_case(case)
    client = Client()
    client.force_login(factories.admin())

    html = client.get(reverse("activity", args=[suite.workspace.slug])).content.decode()

    deleted = reverse("deleted_list", args=[suite.workspace.slug])
    assert f'Restorable from <a href="{deleted}">Deleted cases</a>' in html


def test_a_viewer_sees_the_deleted_cases_but_cannot_restore_them() -> None:
    suite, case = reviewed_suite()
    batch = delete_case(case)
    viewer = factories.member(suite.workspace, "viewer", "vic")
    client = Client()
    client.force_login(viewer)
    slug = suite.workspace.slug

    listed = client.get(reverse("deleted_list", args=[slug])).content.decode()
    refused = client.post(reverse("deleted_restore", args=[slug]), {"batch": batch})

    assert "<code>two</code>" in listed and "Restore" not in listed
    assert refused.status_code == 403
    assert DeletedCase.objects.filter(case_id="two").exists()


def test_a_deleted_case_is_not_found_by_search_and_is_again_once_restored() -> None:
    suite, case = reviewed_suite()
    words = "Question of two"

    batch = delete_case(case)
    assert search_workspace(suite.workspace, words, None, 50).groups == []
    restore(suite.workspace, None, batch=batch)

    [group] = search_workspace(suite.workspace, words, None, 50).groups
    assert [found.case_id for found in group.cases] == ["two"]
