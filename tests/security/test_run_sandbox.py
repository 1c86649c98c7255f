"""An editor's config with a hook, made through Files → New, never runs on the server: the run
is refused before it starts, naming the hook, and the command's file never appears
(docs/security.md, "Runs")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from evals_app.models import Case, Run, WorkspaceFile
from tests.factories import member
from tests.html_forms import form_fields
from tests.runs.sandbox import PLAIN_TEST, sandbox_workspace

pytestmark = pytest.mark.django_db


def test_a_hook_in_a_config_made_in_the_app_is_refused_and_never_runs(
    tmp_path: Path, settings: Any
) -> None:
    settings.AGENTV_RUNS_ENABLED = True
    settings.AGENTV_RUNS_ALLOW_COMMANDS = False
    settings.AGENTV_TARGETS_FILE = ""
    canary = tmp_path / "canary"
    workspace = sandbox_workspace(tmp_path / "workspace", "tests:\n" + PLAIN_TEST)
    editor = Client()
    editor.force_login(member(workspace, "editor", username="edna"))
    created = editor.post(
        f"/w/{workspace.slug}/files/new/",
        {"path": ".agentv/config.yaml", "text": f"hooks:\n  before_session: touch {canary}\n"},
    )
    assert created.status_code == 302
    assert WorkspaceFile.objects.filter(workspace=workspace, path=".agentv/config.yaml").exists()
    case = Case.objects.get(suite__workspace=workspace, case_id="plain")
    page = f"/w/{workspace.slug}/suites/{case.suite.pk}/cases/{case.pk}/"
    html = editor.get(page).content.decode()
    assert ".agentv/config.yaml › hooks: starts a program" in html  # before the click
    posted = editor.post(f"{page}run/", {**form_fields(html, "case-form"), "run_target": "mock"})
    assert ".agentv/config.yaml › hooks: starts a program" in posted.content.decode()
    assert not Run.objects.exists()
    assert not canary.exists()
