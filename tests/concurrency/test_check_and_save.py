"""A check for changes writes nothing, so it never keeps a save from writing: on SQLite its
transaction reads without taking the database's one writer (docs/sync.md, "The three-way rule")."""

from __future__ import annotations

import copy
import threading
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, connections

from evals_app.models import Case
from evals_app.services.cases.editing import save_case
from evals_app.services.repository import three_way
from evals_app.services.repository.sync import sync_repository
from tests.git_repositories import linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.django_db(transaction=True)

PATH = "evals/suite.eval.yaml"
SAVE_SECONDS = 5  # far below the 20 s a save would wait for the writer before failing


def test_a_save_elsewhere_lands_while_a_check_reads(tmp_path: Path) -> None:
    assert connection.vendor != "sqlite" or not connection.is_in_memory_db()
    repo = repository(tmp_path / "repo")
    repo.commit({PATH: suite_yaml(("checked", "Checked?"))})
    checked = linked_workspace(repo, "checked")
    repo.commit({PATH: suite_yaml(("checked", "Changed upstream?"))})
    other = repository(tmp_path / "other")
    other.commit({PATH: suite_yaml(("edited", "Before?"))})
    case = Case.objects.get(suite__workspace=linked_workspace(other, "edited"))
    edited = copy.deepcopy(case.document)
    edited["input"] = "After?"
    saved: list[Any] = []

    def save() -> None:
        try:
            saved.append(save_case(Case.objects.get(pk=case.pk), edited, case.version))
        finally:
            connections.close_all()

    reading = three_way.check_still_settled

    def save_while_the_check_reads(*args: Any) -> None:
        reading(*args)
        saving = threading.Thread(target=save)
        saving.start()
        saving.join(SAVE_SECONDS)
        assert not saving.is_alive(), "the save waited for the check"

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(three_way, "check_still_settled", save_while_the_check_reads)
        _, report = sync_repository(checked, dry_run=True)

    assert [(o.kind, o.case_id) for o in report.outcomes] == [("updated", "checked")]
    assert Case.objects.get(pk=case.pk).document["input"] == "After?"
    assert Case.objects.get(suite__workspace=checked).document["input"] == "Checked?"
