"""Suites (eval files) of a workspace, and the summary of their cases that the suite page lists."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from pydantic import ValidationError

from ..formatting.engine import FormattedCase
from ..models import Case, ContentBlock, Message, Suite, Workspace
from .formatting import WorkspaceFormatter
from .workspace_paths import check_path_free, clean_eval_path


def create_suite(workspace: Workspace, path: str) -> Suite:
    """A new eval file at `path` with no cases (`$schema` and `evalcases: []` on export).

    Raises WorkspacePathError when the path is malformed, not .yaml/.yml, or taken.
    """
    path = clean_eval_path(path)
    with transaction.atomic():
        check_path_free(workspace, path)
        return Suite.objects.create(workspace=workspace, path=path)


@dataclass(frozen=True)
class CaseSummary:
    """One row of the suite page: the case, its input turns, and how it formats (lm mode)."""

    case: Case
    input_turns: int
    formatted: FormattedCase | None
    # Set instead of `formatted` when the stored case is not a valid eval case (e.g. no turns).
    problem: str = ""


def search_cases(suite: Suite, query: str = "") -> QuerySet[Case]:
    """The suite's cases in order; with `query`, those whose id, outcome or any turn's content
    (text, or a referenced file's path) contains it, ignoring case."""
    open_threads = Count("threads", filter=Q(threads__resolved_at__isnull=True), distinct=True)
    cases = suite.cases.annotate(open_threads=open_threads).order_by("position")
    query = query.strip()
    if not query:
        return cases
    in_turns = ContentBlock.objects.filter(message__case=OuterRef("pk"), value__icontains=query)
    return cases.filter(
        Q(case_id__icontains=query) | Q(outcome__icontains=query) | Exists(in_turns)
    )


def summarize_cases(
    formatter: WorkspaceFormatter, suite: Suite, cases: QuerySet[Case]
) -> list[CaseSummary]:
    """Format each case once; messages and blocks are prefetched, so the number of queries
    does not grow with the number of cases."""
    blocks = Prefetch("blocks", queryset=ContentBlock.objects.order_by("position"))
    messages = Message.objects.order_by("section", "position").prefetch_related(blocks)
    summaries = []
    for case in cases.prefetch_related(Prefetch("messages", queryset=messages)):
        input_turns = sum(
            1 for message in case.messages.all() if message.section == Message.Section.INPUT
        )
        try:
            formatted = formatter.format(case, suite)
        except ValidationError as error:
            problem = "; ".join(
                f"{'.'.join(str(part) for part in item['loc'])}: {item['msg']}"
                for item in error.errors()
            )
            summaries.append(CaseSummary(case, input_turns, None, problem))
        else:
            summaries.append(CaseSummary(case, input_turns, formatted))
    return summaries
