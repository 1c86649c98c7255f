"""`export_evals --reviews FILE`: every review as a JSON line, for analysis elsewhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from evals_app.models import ReviewCriterion, ReviewEvent, ReviewStatus
from evals_app.services.review.criteria import add_criterion
from evals_app.services.review.workflow import move
from tests import factories

pytestmark = pytest.mark.django_db
Action = ReviewEvent.Action


def test_every_review_is_a_json_line_with_its_scores(tmp_path: Path) -> None:
    workspace = factories.workspace("Support")
    suite = factories.suite(workspace)
    case = factories.case(suite, "refund", status=ReviewStatus.IN_REVIEW)
    clear = add_criterion(workspace, "Clear", ReviewCriterion.Kind.SCALE)
    ann = factories.member(workspace, "reviewer", "ann")
    move(case, ann, Action.CHANGES_REQUESTED, "Vague.", {clear.pk: "2"})
    target = tmp_path / "reviews.jsonl"

    call_command("export_evals", "--reviews", str(target))

    lines = [json.loads(line) for line in target.read_text().splitlines()]
    assert len(lines) == 1
    line = lines[0]
    assert {key: line[key] for key in line if key != "time"} == {
        "workspace": "Support",
        "suite": "evals/review.yaml",
        "case": "refund",
        "revision": 0,
        "reviewer": "ann",
        "decision": "changes_requested",
        "scores": {"Clear": "2"},
        "note": "Vague.",
    }


def test_export_evals_needs_an_export_folder_or_a_reviews_file() -> None:
    factories.workspace("Support")

    with pytest.raises(CommandError, match="give --out DIR, --reviews FILE, or both"):
        call_command("export_evals")


def test_a_reviews_file_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    factories.workspace("Support")

    with pytest.raises(CommandError, match="cannot write"):
        call_command("export_evals", "--reviews", str(tmp_path / "missing" / "reviews.jsonl"))
