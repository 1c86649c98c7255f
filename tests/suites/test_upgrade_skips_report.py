"""What the upgrade cannot convert is reported per case, by `upgrade_evals` and on the upgrade
page: "AgentV will skip this test: …" (docs/formats.md, "Upgrading to today's format")."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from evals_app.models import Suite, Workspace
from tests import factories

pytestmark = pytest.mark.django_db

OLDER_FILE = """\
evalcases:
  - id: slow-search
    input_messages: [{role: user, content: Find it.}]
    outcome: Finds it.
    execution:
      evaluators:
        - type: tool_trajectory
          mode: subset
          expected: [{tool: search}]
  - id: quick-search
    input_messages: [{role: user, content: Find it.}]
    outcome: Finds it.
    execution:
      evaluators:
        - type: tool_trajectory
          mode: any_order
          minimums: {search: 1}
"""
SKIP = "AgentV will skip this test: a tool_trajectory with mode 'subset'"


@pytest.fixture
def suite(tmp_path: Path) -> Suite:
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "search.yaml").write_text(OLDER_FILE)
    workspace = factories.imported_workspace(tmp_path, "Search evals")
    return workspace.suites.get(path="evals/search.yaml")


def test_the_command_names_each_case_agentv_will_skip(suite: Suite) -> None:
    out = StringIO()
    call_command("upgrade_evals", "--workspace", "Search evals", "--dry-run", stdout=out)

    lines = out.getvalue().splitlines()
    assert [line for line in lines if "AgentV will skip" in line] == [
        f"  slow-search: {SKIP} and these checks has no equivalent in today's AgentV"
    ]


def test_the_page_shows_the_skip_on_the_case(suite: Suite) -> None:
    workspace: Workspace = suite.workspace
    client = Client()
    client.force_login(factories.member(workspace, "editor"))

    page = client.get(reverse("suite_upgrade", args=[workspace.slug, suite.pk])).content.decode()

    slow, quick = page.split('id="case-1-heading"')[1].split('id="case-2-heading"')
    assert '<p class="message error">AgentV will skip this test: a tool_trajectory' in slow
    assert "AgentV will skip this test" not in quick
