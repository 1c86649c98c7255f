"""What pages show of past runs: a suite's last run, each case's last result, a case's runs,
and how two revisions' runs differ (docs/runs.md, "Results")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Max, Q

from ...models import Case, Job, Run, RunResult, Suite

PASSED = RunResult.Verdict.PASS
SKIPPED = RunResult.Verdict.SKIPPED


@dataclass(frozen=True)
class RunSummary:
    """A finished run's counts, for the suite page: the tests AgentV skipped are counted
    apart, never as failures."""

    run: Run
    passed: int
    total: int
    skipped: int = 0

    @property
    def pass_rate(self) -> int:
        """Whole percent of the run's tests that passed."""
        return round(100 * self.passed / self.total) if self.total else 0


@dataclass(frozen=True)
class VerdictChange:
    """One case's verdict with one target at two revisions."""

    target: str
    old: RunResult | None
    new: RunResult | None

    @property
    def changed(self) -> bool:
        return (self.old and self.old.verdict) != (self.new and self.new.verdict)


def last_suite_run(suite: Suite) -> RunSummary | None:
    """The suite's latest run that finished with results, with its counts (one query)."""
    run = (
        Run.objects.filter(suite=suite, job__state=Job.State.DONE)
        .annotate(
            passed=Count("results", filter=Q(results__verdict=PASSED)),
            total=Count("results", filter=~Q(results__verdict=SKIPPED)),
            skipped=Count("results", filter=Q(results__verdict=SKIPPED)),
        )
        .first()
    )
    if run is None:
        return None
    return RunSummary(run, run.passed, run.total, run.skipped)


def last_results(cases: Iterable[Case]) -> dict[int, RunResult]:
    """Each case's latest result, by case pk (one query, one row a case however often it ran)."""
    pks = [case.pk for case in cases]
    newest = RunResult.objects.filter(case__in=pks).values("case").annotate(newest=Max("pk"))
    results = RunResult.objects.filter(pk__in=newest.values("newest")).select_related("run")
    return {result.case_id: result for result in results if result.case_id is not None}


def case_results(case: Case, limit: int = 50) -> list[RunResult]:
    """The case's results, newest first, with their runs."""
    return list(case.run_results.select_related("run__job").order_by("-pk")[:limit])


def verdict_changes(case: Case, old_number: int, new_number: int) -> list[VerdictChange]:
    """For each target either revision ran with, the latest verdict at each revision."""
    results = case.run_results.filter(revision_number__in=[old_number, new_number]).order_by("-pk")
    latest: dict[tuple[str, int], RunResult] = {}
    for result in results:
        assert result.revision_number is not None
        latest.setdefault((result.target, result.revision_number), result)
    targets = sorted({target for target, _ in latest})
    return [
        VerdictChange(target, latest.get((target, old_number)), latest.get((target, new_number)))
        for target in targets
    ]
