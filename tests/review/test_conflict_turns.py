"""The conflict banner of a conversation shows each turn side by side, the app's version beside
the repository's (docs/sync.md, "Conflicts"): a 2026 conversation test's `turns`, and the
messages of a 2025 multi-turn case; never one JSON text of every turn."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.repository.sync import sync_repository
from tests import factories
from tests.git_repositories import Repository, linked_workspace, repository

pytestmark = pytest.mark.django_db

PATH = "evals/chat.eval.yaml"
TODAY = """\
prompts:
  - "{{ input }}"
tests:
  - id: order-lookup
    mode: conversation
    vars:
      input:
        - role: system
          content: Be brief.
    turns:
      - input: Where is my order 4411?
        expected_output: Which email address is on the order?
      - input: It is sam@example.com.
        expected_output: Order 4411 shipped yesterday.
      - input: Thanks!
        expected_output: You are welcome.
"""
PERIOD_2025 = """\
evalcases:
  - id: order-lookup
    outcome: Gives the order's status.
    input_messages:
      - role: system
        content: Be brief.
      - role: user
        content: Where is my order 4411?
      - role: assistant
        content: Which email address is on the order?
      - role: user
        content: It is sam@example.com.
"""


def conflict_page(tmp_path: Path, text: str, mine: str, theirs: str) -> str:
    """The editor of the case, changed here (`mine` replaced by its edit) and in the repository
    (`theirs` replaced by its edit), after the sync that found the conflict."""
    repo: Repository = repository(tmp_path / "repo")
    repo.commit({PATH: text}, "evals")
    workspace: Workspace = linked_workspace(repo)
    case = Case.objects.get(case_id="order-lookup")
    edited = text.replace(mine, f"{mine} (edited here)")
    document = _document(tmp_path, edited)
    save_case(case, document, case.version, factories.user("editor", None))
    repo.commit({PATH: text.replace(theirs, f"{theirs} (edited there)")}, "teammate")
    sync_repository(workspace)
    case = Case.objects.get(case_id="order-lookup")
    assert case.in_conflict
    client = Client()
    client.force_login(factories.member(workspace, "owner"))
    url = reverse("case_editor", args=[workspace.slug, case.suite_id, case.pk])
    return unescape(client.get(url).content.decode())


def _document(tmp_path: Path, text: str) -> dict[str, object]:
    """The case of the eval file `text`, as an import reads it."""
    root = factories.write_files(tmp_path / "read", {PATH: text})
    workspace = factories.imported_workspace(root, "read")
    document = workspace.suites.get().cases.get().document
    workspace.delete()
    return dict(document)


def banner(html: str) -> str:
    found = re.search(r'<section class="card conflict-banner".*?</section>', html, re.S)
    assert found is not None, "no conflict banner"
    return found.group(0)


def turn_rows(html: str) -> dict[str, tuple[str, str]]:
    """The banner's turn rows: their heading (as "turn 2: changed") to (yours, theirs) texts."""
    rows = {}
    for row in re.findall(r'<tr class="turn-change [a-z]+">(.*?)</tr>', banner(html), re.S):
        heading = re.search(r'<th scope="row">(.*?)</th>', row, re.S)
        assert heading is not None
        label = " ".join(re.sub(r"<[^>]+>", " ", heading.group(1)).split())
        cells = re.findall(r"<td>(.*?)</td>", row, re.S)
        rows[label] = (cells[0], cells[1])
    return rows


def test_a_2026_conversation_test_in_conflict_shows_each_turn_side_by_side(
    tmp_path: Path,
) -> None:
    html = conflict_page(tmp_path, TODAY, "Thanks!", "Order 4411 shipped yesterday.")

    rows = turn_rows(html)
    assert rows["turn 1: unchanged"][0] == rows["turn 1: unchanged"][1]
    assert rows["turn 2: changed"] == (
        "<pre>\ninput: It is sam@example.com.\nexpected_output: Order 4411 shipped yesterday."
        "</pre>",
        "<pre>\ninput: It is sam@example.com.\nexpected_output: Order 4411 shipped yesterday."
        "<ins> (edited there)</ins></pre>",
    )
    assert rows["turn 3: changed"] == (
        "<pre>\ninput: Thanks!<del> (edited here)</del>\nexpected_output: You are welcome.</pre>",
        "<pre>\ninput: Thanks!\nexpected_output: You are welcome.</pre>",
    )
    assert '"expected_output"' not in banner(html)  # no JSON text of the turns


def test_a_2025_multi_turn_case_in_conflict_shows_each_turn_side_by_side(
    tmp_path: Path,
) -> None:
    html = conflict_page(tmp_path, PERIOD_2025, "It is sam@example.com.", "Where is my order 4411?")

    rows = turn_rows(html)
    yours, theirs = rows["input 2: changed"]
    assert "Where is my order 4411?</pre>" in yours
    assert "(edited there)</ins>" in theirs
    yours, theirs = rows["input 4: changed"]
    assert "(edited here)</del>" in yours
    assert "It is sam@example.com.</pre>" in theirs
