"""Saves of one case from many threads at once: each lands whole or is a conflict, never a mix.

Real threads on real connections (on SQLite a database file, see tests/conftest.py): the
version check and the row lock (PostgreSQL) or the IMMEDIATE write transaction (SQLite) are
what keeps two saves from interleaving.
"""

from __future__ import annotations

import copy
import random
import time
from typing import Any

import pytest

from evals_app.models import Case
from evals_app.services.cases.editing import CaseConflict, save_case
from tests import factories
from tests.concurrency.threads import run_together

pytestmark = pytest.mark.django_db(transaction=True)

WRITERS = 8
TURN_ADDERS = 40  # 2 × 20: two people's worth of quick edits, all at once
MAX_ATTEMPTS = 400


def stored_case(pk: int) -> Case:
    return Case.objects.get(pk=pk)


def stored_document(pk: int) -> dict[str, Any]:
    return stored_case(pk).document


@pytest.fixture
def case() -> Case:
    suite = factories.suite(factories.workspace())
    return factories.case(
        suite,
        "shared",
        ("system", "You are terse."),
        ("user", "What is 2+2?"),
        ("assistant", "4"),
        ("user", "And 3+3?"),
    )


def writers_version(document: dict[str, Any], writer: int) -> dict[str, Any]:
    """`document` changed in several places at once, each change naming the writer."""
    changed = copy.deepcopy(document)
    changed["outcome"] = f"Outcome of writer {writer}"
    changed["input_messages"][1]["content"] = f"Question of writer {writer}"
    changed["input_messages"].append({"role": "user", "content": f"Follow-up of writer {writer}"})
    del changed["input_messages"][0]
    return changed


def test_concurrent_saves_from_one_version_land_once_and_whole(case: Case) -> None:
    base = stored_document(case.pk)
    documents = [writers_version(base, writer) for writer in range(WRITERS)]

    def save(document: dict[str, Any]) -> Any:
        return save_case(Case.objects.get(pk=case.pk), document, case.version)

    results = run_together([lambda document=document: save(document) for document in documents])

    unexpected = [r for r in results if not isinstance(r, Case | CaseConflict)]
    assert not unexpected, unexpected
    landed = [index for index, result in enumerate(results) if isinstance(result, Case)]
    assert len(landed) == 1, results
    assert stored_document(case.pk) == documents[landed[0]]
    assert Case.objects.get(pk=case.pk).version == case.version + 1


def add_turn_until_saved(pk: int, text: str) -> int:
    """Load the case, append a user turn, save; on a conflict, do it again on the version that
    won (the conflict carries it), as the editor lets a person do.

    Returns the number of attempts it took.
    """
    current = stored_case(pk)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        document = current.document
        document["input_messages"].append({"role": "user", "content": text})
        try:
            save_case(current, document, current.version)
        except CaseConflict as conflict:
            current = conflict.current  # the version that won, turns and all
            time.sleep(random.uniform(0, 0.005))  # noqa: S311 - jitter, not cryptography
            continue
        return attempt
    raise AssertionError(f"{text!r} was not saved in {MAX_ATTEMPTS} attempts")


def test_parallel_turn_additions_are_all_kept_in_contiguous_positions(case: Case) -> None:
    before = len(stored_document(case.pk)["input_messages"])
    texts = [f"Turn added by worker {worker}" for worker in range(TURN_ADDERS)]

    results = run_together(
        [lambda text=text: add_turn_until_saved(case.pk, text) for text in texts]
    )

    assert all(isinstance(attempts, int) for attempts in results), results
    turns = stored_document(case.pk)["input_messages"]
    added = [turn["content"] for turn in turns[before:]]
    assert sorted(added) == sorted(texts)
    assert Case.objects.get(pk=case.pk).version == case.version + TURN_ADDERS
