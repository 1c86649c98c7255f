"""A suite's list of cases changed from many threads at once keeps its positions unique.

Every change locks the suite row first (STYLE.md, "Ordered children"); without that, two
changes that make room or swap positions interleave and the unique (suite, position)
constraint fails.
"""

from __future__ import annotations

import pytest

from evals_app.models import Case, Suite
from evals_app.services.cases.list_changes import (
    add_case,
    create_case,
    duplicate_case,
    move_case,
)
from tests import factories
from tests.concurrency.threads import run_together

pytestmark = pytest.mark.django_db(transaction=True)

WORKERS = 8


@pytest.fixture
def suite() -> Suite:
    suite = factories.suite(factories.workspace())
    for case_id in ("a", "b", "c"):
        factories.case(suite, case_id)
    return suite


def edit_the_list(suite: Suite, worker: int) -> str:
    """What one person does: add a case, copy it, and move both around."""
    added = create_case(suite, f"added-by-{worker}")
    copy = duplicate_case(added)
    move_case(added, "up")
    move_case(copy, "down")
    move_case(added, "up")
    move_case(copy, "up")
    return copy.case_id


def test_concurrent_adds_copies_and_moves_keep_positions_unique(
    suite: Suite,
) -> None:
    results = run_together(
        [lambda worker=worker: edit_the_list(suite, worker) for worker in range(WORKERS)]
    )

    assert all(isinstance(copy_id, str) for copy_id in results), results
    rows = list(Case.objects.filter(suite=suite).values_list("position", "case_id"))
    positions = [position for position, _ in rows]
    assert len(set(positions)) == len(positions) == 3 + 2 * WORKERS
    ids = {case_id for _, case_id in rows}
    assert ids == {"a", "b", "c"} | {f"added-by-{w}" for w in range(WORKERS)} | set(results)


def test_a_double_click_on_add_case_makes_one_case(suite: Suite) -> None:
    author = factories.user("alice", password=None)

    results = run_together([lambda: add_case(suite, "clicked", author) for _ in range(2)])

    assert sorted(added.created for added in results) == [False, True], results
    assert results[0].case.pk == results[1].case.pk
    assert Case.objects.filter(suite=suite, case_id="clicked").count() == 1
