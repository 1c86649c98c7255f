"""Duplicating and deleting a case in the middle of one large suite: each touches a few rows,
whatever the size of the suite (docs/performance.md, "Positions")."""

from __future__ import annotations

import time

from .figures import Figure, at_most, median, progress, report

LIST_CHANGE_MILLISECONDS = 100
REPEATS = 15
SUITE_NAME = "bench-one-suite"


def measure_list_changes(cases: int) -> list[Figure]:
    """Store one suite of `cases` cases (positions as an import gives them), then time
    duplicating its middle case and deleting the copy, `REPEATS` times each."""
    from evals_app.models import Case
    from evals_app.services.cases.list_changes import delete_case, duplicate_case
    from evals_app.services.cases.positions import spread_positions
    from evals_app.services.cases.summaries import SUMMARY_FIELDS
    from tests import factories

    progress(f"storing one suite of {cases} cases")
    workspace = factories.workspace(SUITE_NAME)
    suite = factories.suite(workspace, "evals/one.yaml")
    template = factories.case(suite, "template")
    template.delete()  # its document and summary are the model of every row
    rows = []
    for number, position in enumerate(spread_positions(cases)):
        row = Case(suite=suite, position=position, case_id=f"case-{number:06}")
        row.document = {**template.document, "id": row.case_id}
        for field in SUMMARY_FIELDS:  # current, as an import stores them
            setattr(row, field, getattr(template, field))
        rows.append(row)
        if len(rows) == 2000:
            Case.objects.bulk_create(rows)
            rows = []
    Case.objects.bulk_create(rows)
    middle = suite.cases.get(case_id=f"case-{cases // 2:06}")
    duplicating, deleting = [], []
    for _ in range(REPEATS):
        start = time.perf_counter()
        copy = duplicate_case(middle)
        duplicating.append(time.perf_counter() - start)
        start = time.perf_counter()
        delete_case(copy)
        deleting.append(time.perf_counter() - start)
    target = at_most(LIST_CHANGE_MILLISECONDS)
    return [
        report(Figure("case_duplicate_p50", median(duplicating) * 1000, "ms", target)),
        report(Figure("case_delete_p50", median(deleting) * 1000, "ms", target)),
    ]
