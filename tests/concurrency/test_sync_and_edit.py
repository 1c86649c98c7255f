"""A sync and an edit of the same case at once: whichever lands first, nobody's words are lost.

The sync bumps the version of a case it changes, so an edit based on the older version is a
conflict for its author; an edit that lands first makes the sync see a case changed on both
sides, a conflict kept beside it (docs/sync.md).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from evals_app.models import Case
from evals_app.services.cases.editing import CaseConflict, save_case
from evals_app.services.repository.sync import sync_repository
from tests.concurrency.threads import run_together
from tests.git_repositories import linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.django_db(transaction=True)

PATH = "evals/suite.eval.yaml"
ROUNDS = 6


@pytest.mark.parametrize("round_number", range(ROUNDS))
def test_a_sync_and_an_edit_at_once_keep_both_versions(tmp_path: Path, round_number: int) -> None:
    repo = repository(tmp_path / "repo")
    repo.commit({PATH: suite_yaml(("shared", "Original?"))})
    workspace = linked_workspace(repo, f"team-{round_number}")
    repo.commit({PATH: suite_yaml(("shared", "Theirs?"))})
    case = Case.objects.get(suite__workspace=workspace)
    mine = copy.deepcopy(case.document)
    mine["input"] = "Mine?"

    def edit() -> Any:
        return save_case(Case.objects.get(pk=case.pk), mine, case.version)

    def sync() -> Any:
        return sync_repository(workspace)

    edited, synced = run_together([edit, sync])

    assert isinstance(synced, tuple), synced
    stored = Case.objects.get(pk=case.pk)
    if isinstance(edited, CaseConflict):  # the sync landed first: the edit was refused
        assert stored.document["input"] == "Theirs?"
        assert not stored.in_conflict
    else:  # the edit landed first: the sync kept the repository's version beside it
        assert isinstance(edited, Case), edited
        assert stored.document["input"] == "Mine?"
        assert stored.theirs_document["input"] == "Theirs?"
