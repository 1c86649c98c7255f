"""Upgrading a suite to today's format: see what changes (GET), then apply it (POST)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from ..permissions import Capability, signed_in_user, workspace_access
from ..services.jobs.requests import ask_upgrade
from ..services.review.case_diff import LineRow, Run, fold_unchanged, line_diff
from ..services.suites.upgrade import CaseUpgrade, plan_upgrade
from .htmx_request import HtmxHttpRequest


@dataclass(frozen=True)
class CaseComparison:
    """One case of the preview: the plan's view of it and its two side-by-side diffs."""

    upgrade: CaseUpgrade
    yaml: list[Run[LineRow]]
    question: list[Run[LineRow]]


@require_http_methods(["GET", "POST"])
def suite_upgrade(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Show what upgrading the suite changes, writing nothing (GET); queue its upgrade (POST)."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    suite = get_object_or_404(access.workspace.suites, pk=suite_pk)
    suite.workspace = access.workspace
    if suite.read_only:
        raise Http404("A CSV file of cases is read-only.")
    if request.method == "POST":
        return redirect(ask_upgrade(signed_in_user(request), access.workspace, suite))
    upgrade = plan_upgrade(access.workspace, [suite])
    suite_plan = upgrade.suites[0]
    context: dict[str, Any] = {
        "workspace": access.workspace,
        "access": access,
        "suite": suite,
        "plan": suite_plan,
        "templates": upgrade.templates,
        "header": _folded(line_diff(suite_plan.header_yaml_before, suite_plan.header_yaml_after)),
        "cases": [
            CaseComparison(
                case,
                _folded(line_diff(case.yaml_before, case.yaml_after)),
                _folded(line_diff(case.question_before, case.question_after)),
            )
            for case in suite_plan.cases
        ],
    }
    return render(request, "evals/suite_upgrade.html", context)


def _folded(rows: list[LineRow]) -> list[Run[LineRow]]:
    return fold_unchanged(rows, lambda row: row.op == "equal")
