"""A workspace's review form: its criteria, added, changed, reordered and removed by owners, and
the answers a reviewer posts to it (docs/user-guide.md, "Review forms and scores")."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import IntegrityError, transaction
from django.db.models import Max

from ...models import ReviewCriterion, Workspace

Kind = ReviewCriterion.Kind
MAX_CRITERIA = 30
MAX_LABELS = 20
MAX_LABEL_LENGTH = 100
MAX_TEXT_ANSWER = 5_000


class CriterionError(ValueError):
    """A criterion or an answer that cannot be saved, with the reason in words."""


def review_form(workspace: Workspace) -> list[ReviewCriterion]:
    """The workspace's criteria, in order (one query)."""
    return list(ReviewCriterion.objects.filter(workspace=workspace).order_by("position"))


def add_criterion(
    workspace: Workspace, name: str, kind: str, help_text: str = "", labels: str = ""
) -> ReviewCriterion:
    """Add a criterion at the end of the workspace's form."""
    if kind not in Kind.values:
        raise CriterionError("Choose what kind of answer the criterion takes.")
    with transaction.atomic():
        Workspace.objects.select_for_update().filter(pk=workspace.pk).first()
        existing = ReviewCriterion.objects.filter(workspace=workspace)
        if existing.count() >= MAX_CRITERIA:
            raise CriterionError(f"A review form has at most {MAX_CRITERIA} criteria.")
        last = existing.aggregate(last=Max("position"))["last"]
        criterion = ReviewCriterion(
            workspace=workspace, position=0 if last is None else last + 1, kind=kind
        )
        _fill(criterion, name, help_text, labels)
        _save(criterion)
    return criterion


def change_criterion(
    criterion: ReviewCriterion, name: str, help_text: str = "", labels: str = ""
) -> ReviewCriterion:
    """Rename a criterion, or change its help text or labels (its kind stays: answers given
    to it keep their meaning). A label still used by a score cannot be removed."""
    old_labels = set(criterion.labels)
    _fill(criterion, name, help_text, labels)
    dropped = old_labels - set(criterion.labels)
    if dropped and criterion.scores.filter(value__in=dropped).exists():
        used = ", ".join(sorted(dropped))
        raise CriterionError(f"Reviews chose the label(s) {used}: they cannot be removed.")
    with transaction.atomic():
        _save(criterion)
    return criterion


def delete_criterion(criterion: ReviewCriterion) -> None:
    """Remove a criterion from the form, with every answer given to it."""
    with transaction.atomic():
        Workspace.objects.select_for_update().filter(pk=criterion.workspace_id).first()
        # Positions only order the criteria: the gap it leaves needs no renumbering.
        criterion.delete()


def read_answers(criteria: list[ReviewCriterion], posted: Mapping[str, str]) -> dict[int, str]:
    """The answers posted as `score-<criterion id>`, by criterion id; an empty field is no
    answer. CriterionError names the criterion of an answer it does not allow."""
    answers: dict[int, str] = {}
    for criterion in criteria:
        value = (posted.get(f"score-{criterion.pk}") or "").replace("\r\n", "\n").strip()
        if not value:
            continue
        if criterion.kind == Kind.TEXT:
            if len(value) > MAX_TEXT_ANSWER:
                raise CriterionError(
                    f"{criterion.name}: at most {MAX_TEXT_ANSWER:,} characters, please."
                )
        elif value not in criterion.choices:
            allowed = ", ".join(criterion.choices)
            raise CriterionError(f"{criterion.name}: {value!r} is not one of {allowed}.")
        answers[criterion.pk] = value
    return answers


def _fill(criterion: ReviewCriterion, name: str, help_text: str, labels: str) -> None:
    name = " ".join(name.split())
    if not name:
        raise CriterionError("A criterion needs a name.")
    if len(name) > 100:
        raise CriterionError("A criterion's name has at most 100 characters.")
    help_text = " ".join(help_text.split())
    if len(help_text) > 500:
        raise CriterionError("A criterion's help text has at most 500 characters.")
    criterion.name = name
    criterion.help_text = help_text
    criterion.labels = _labels(labels) if criterion.kind == Kind.LABEL else []


def _labels(text: str) -> list[str]:
    """One label per line (or comma-separated on one line), in order, each once."""
    lines = text.replace("\r\n", "\n").split("\n")
    if len(lines) == 1:
        lines = lines[0].split(",")
    labels = list(dict.fromkeys(" ".join(line.split()) for line in lines if line.strip()))
    if len(labels) < 2:
        raise CriterionError("A choice of labels needs at least two labels, one per line.")
    if len(labels) > MAX_LABELS:
        raise CriterionError(f"A choice of labels has at most {MAX_LABELS} labels.")
    too_long = [label for label in labels if len(label) > MAX_LABEL_LENGTH]
    if too_long:
        raise CriterionError(f"A label has at most {MAX_LABEL_LENGTH} characters: {too_long[0]}")
    return labels


def _save(criterion: ReviewCriterion) -> None:
    try:
        with transaction.atomic():
            criterion.save()
    except IntegrityError as error:
        raise CriterionError(f"The form already has a criterion named {criterion.name}.") from error
