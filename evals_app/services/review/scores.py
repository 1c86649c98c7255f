"""What reviews said: each case's current scores, the suite page's score filter, each
criterion's distribution and the reviewers' agreement (docs/user-guide.md, "Review forms and
scores").

A reviewer's current review of a case is their latest: reviewing again replaces what they said
before, so counts and agreement take one answer per reviewer and case.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, QuerySet

from ...models import (
    Case,
    CaseReview,
    ReviewCriterion,
    ReviewEvent,
    ReviewScore,
    Revision,
)
from ...permissions import WorkspaceAccess, decided_by, reviews_blind
from .agreement import Agreement, agreement
from .approvals import rules_of
from .criteria import review_form

Action = ReviewEvent.Action
DECISION = "decision"


def current_reviews() -> QuerySet[CaseReview]:
    """Every review that no later review of the same reviewer on the same case replaced."""
    later = CaseReview.objects.filter(
        case=OuterRef("case"), reviewer=OuterRef("reviewer"), pk__gt=OuterRef("pk")
    )
    return CaseReview.objects.exclude(Exists(later))


@dataclass
class CaseScores:
    """One current review of a case as the suite page shows it."""

    reviewer: str
    decision: str
    answers: list[tuple[str, str]]
    action: str = ""  # the decision as the API and the export spell it


def scores_of_cases(
    cases: Iterable[Case], hidden: set[int] | None = None
) -> dict[int, list[CaseScores]]:
    """The current reviews of `cases` with their answers, by case id, leaving out the cases in
    `hidden` (blind review); two queries whatever the number of reviews."""
    wanted = [case.pk for case in cases if case.pk not in (hidden or set())]
    reviews = list(
        current_reviews()
        .filter(case_id__in=wanted)
        .select_related("reviewer")
        .prefetch_related("scores__criterion")
        .order_by("created_at", "pk")
    )
    by_case: dict[int, list[CaseScores]] = defaultdict(list)
    for review in reviews:
        answers = [(score.criterion.name, score.value) for score in review.scores.all()]
        name = review.reviewer.username if review.reviewer else "someone"
        said = review.get_decision_display()
        by_case[review.case_id].append(CaseScores(name, said, answers, review.decision))
    return dict(by_case)


def cases_scored(cases: QuerySet[Case], criterion: int, value: str) -> QuerySet[Case]:
    """The cases of `cases` that some reviewer's current review answered `value` to."""
    answered = ReviewScore.objects.filter(
        criterion_id=criterion,
        value=value,
        review__in=current_reviews().filter(case=OuterRef(OuterRef("pk"))),
    )
    return cases.filter(Exists(answered))


def score_filter_choices(criteria: Iterable[ReviewCriterion]) -> list[tuple[str, str]]:
    """The suite page's score filter: (`criterion id:value`, words) for every categorical
    answer of the form."""
    return [
        (f"{criterion.pk}:{choice}", f"{criterion.name}: {choice}")
        for criterion in criteria
        if criterion.categorical
        for choice in criterion.choices
    ]


def parse_score_filter(text: str) -> tuple[int, str] | None:
    """(criterion id, value) of a score filter like `12:pass`; None for anything else."""
    number, colon, value = text.partition(":")
    if not colon or not number.isdigit() or not value or len(number) > 12:
        return None
    return int(number), value


@dataclass
class Distribution:
    """How often each answer of a criterion was given (current reviews)."""

    criterion: ReviewCriterion
    counts: list[tuple[str, int]]
    answered: int


def distributions(
    reviews: QuerySet[CaseReview], criteria: list[ReviewCriterion]
) -> list[Distribution]:
    """Each criterion's answers counted over `reviews`, current reviews of the workspace whose
    review form is `criteria` (one query)."""
    rows = (
        ReviewScore.objects.filter(criterion__in=criteria, review__in=reviews)
        .values_list("criterion_id", "value")
        .order_by()
    )
    counted: dict[int, Counter[str]] = defaultdict(Counter)
    for criterion_id, value in rows:
        counted[criterion_id][value] += 1
    result = []
    for criterion in criteria:
        counts = counted.get(criterion.pk, Counter())
        listed = [(choice, counts.get(choice, 0)) for choice in criterion.choices]
        result.append(Distribution(criterion, listed, sum(counts.values())))
    return result


@dataclass
class AuthorAgreement:
    """How reviewers agreed on the decisions about one author's cases."""

    author: str
    agreement: Agreement
    contested: list[Case] = field(default_factory=list)


@dataclass
class AgreementReport:
    """The workspace's agreement: on decisions, per criterion, and per author."""

    decisions: Agreement
    criteria: list[tuple[ReviewCriterion, Agreement]]
    authors: list[AuthorAgreement]


def agreement_report(
    reviews: QuerySet[CaseReview], criteria: list[ReviewCriterion]
) -> AgreementReport:
    """Agreement over the cases with two or more of `reviews`, current reviews of the workspace
    whose review form is `criteria` (three queries)."""
    rows = list(
        reviews.exclude(reviewer=None)
        .values_list("pk", "case_id", "reviewer_id", "decision")
        .order_by()
    )
    by_case: dict[int, dict[int, str]] = defaultdict(dict)
    review_of: dict[int, tuple[int, int]] = {}
    for pk, case, reviewer, decision in rows:
        by_case[case][reviewer] = decision
        review_of[pk] = (case, reviewer)
    reviewed_twice = {case for case, by_reviewer in by_case.items() if len(by_reviewer) >= 2}
    answers: dict[int, dict[int, dict[int, str]]] = defaultdict(lambda: defaultdict(dict))
    categorical = [criterion.pk for criterion in criteria if criterion.categorical]
    scores = ReviewScore.objects.filter(
        criterion_id__in=categorical, review__in=reviews
    ).values_list("review_id", "criterion_id", "value")
    for review, criterion, value in scores:
        case, reviewer = review_of.get(review, (0, 0))
        if case in reviewed_twice:
            answers[criterion][case][reviewer] = value
    per_criterion = [
        (criterion, agreement(answers.get(criterion.pk, {})))
        for criterion in criteria
        if criterion.categorical
    ]
    decisions = {case: by_case[case] for case in reviewed_twice}
    return AgreementReport(agreement(decisions), per_criterion, _per_author(decisions, answers))


def _per_author(
    decisions: dict[int, dict[int, str]], answers: dict[int, dict[int, dict[int, str]]]
) -> list[AuthorAgreement]:
    """Agreement on decisions by the author of each case's latest revision, with the cases
    whose reviewers disagree on the decision or on some answer (most contested authors first)."""
    cases = (
        Case.objects.filter(pk__in=decisions)
        .select_related("suite")
        .only("pk", "case_id", "suite__id", "suite__workspace_id")
    )
    latest = (
        Revision.objects.filter(case_id__in=decisions)
        .order_by("case_id", "-number")
        .values_list("case_id", "author__username")
    )
    author_of: dict[int, str] = {}
    for case_id, username in latest:
        author_of.setdefault(case_id, username or "someone")
    by_author: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        by_author[author_of.get(case.pk, "someone")].append(case)
    report = []
    for author, authored in by_author.items():
        contested = [case for case in authored if _disagree(case.pk, decisions, answers)]
        figures = agreement({case.pk: decisions[case.pk] for case in authored})
        report.append(AuthorAgreement(author, figures, contested))
    return sorted(report, key=lambda item: (-len(item.contested), item.author))


def _disagree(
    case: int, decisions: dict[int, dict[int, str]], answers: dict[int, dict[int, dict[int, str]]]
) -> bool:
    if len(set(decisions[case].values())) > 1:
        return True
    return any(len(set(by_case.get(case, {}).values())) > 1 for by_case in answers.values())


@dataclass
class ReviewReport:
    """The workspace page's review section: the rules, distributions and agreement."""

    required_approvals: int
    blind: bool
    distributions: list[Distribution]
    agreement: AgreementReport


def review_report(access: WorkspaceAccess) -> ReviewReport:
    """What the workspace page shows of its reviews to the user of `access` (a handful of
    queries, whatever their number): a blind reviewer's counts and agreement cover only the
    cases they reviewed, as permissions.blind_to shows them case by case."""
    workspace = access.workspace
    criteria = review_form(workspace)
    rules = rules_of(workspace)
    reviews = current_reviews().filter(case__suite__workspace=workspace)
    if reviews_blind(access):
        reviews = reviews.filter(decided_by(access.user_id, "case"))
    return ReviewReport(
        rules.required_approvals,
        rules.blind,
        distributions(reviews, criteria),
        agreement_report(reviews, criteria),
    )
