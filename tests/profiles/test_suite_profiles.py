"""The AgentV profile of a suite decides how its cases format everywhere: the conflict banner
and the sync check format a 2026 case by the 2026 rules, and a sync brings in the files a 2026
suite reads (services/profiles, docs/formatting.md)."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Suite
from evals_app.services.profiles.workspace_formatter import WorkspaceFormatter
from evals_app.services.repository.sync import sync_repository
from evals_app.services.review.document_diffs import document_diff
from tests import factories
from tests.git_repositories import linked_workspace, repository

pytestmark = pytest.mark.django_db

SYSTEM = "You work at Tea and Co."
# The system message comes from the suite's prompt, which only the 2026 rules read.
SHOP = f"""\
prompts:
  - role: system
    content: {SYSTEM}
  - role: user
    content: "{{{{ input }}}}"
tests:
  - id: greet
    criteria: Greets politely.
    vars:
      input: Greet the customer.
"""
JUDGED = """\
  - id: judged
    criteria: Answers 49.
    vars:
      input: What is 7 times 7?
    assert:
      - type: llm-rubric
        prompt: file://judges/grade.md
"""
JUDGE = "Grade the answer.\nCriteria: {{criteria}}\nAnswer: {{output}}\n"


def shop_suite(tmp_path: Path) -> Suite:
    root = factories.write_files(tmp_path, {"evals/shop.eval.yaml": SHOP})
    suite = factories.imported_workspace(root, "Shop").suites.get()
    assert suite.profile == "agentv-2026"
    return suite


def question_lines(suite: Suite, old: dict[str, object], new: dict[str, object]) -> str:
    diff = document_diff(WorkspaceFormatter(suite.workspace), suite, old, new)
    return "\n".join(f"{row.old} | {row.new}" for run in diff.question for row in run.items)


def test_the_sync_check_formats_a_2026_case_with_its_system_message(tmp_path: Path) -> None:
    suite = shop_suite(tmp_path)
    case = suite.cases.get()
    theirs = {**case.document, "criteria": "Greets warmly."}

    lines = question_lines(suite, case.document, theirs)

    assert SYSTEM in lines
    assert "Greet the customer." in lines


def test_the_conflict_banner_of_a_2026_case_shows_its_system_message(tmp_path: Path) -> None:
    suite = shop_suite(tmp_path)
    case = suite.cases.get()
    Case.objects.filter(pk=case.pk).update(
        theirs_document={**case.document, "criteria": "Greets warmly."}
    )
    client = Client()
    client.force_login(factories.admin())

    page = client.get(reverse("case_editor", args=[suite.workspace.slug, suite.pk, case.pk]))

    assert page.status_code == 200
    html = unescape(page.content.decode())
    banner = html[html.index('id="conflict-heading"') :]
    question = banner[banner.index("<h4>Formatted question</h4>") : banner.index("<h4>YAML</h4>")]
    assert SYSTEM in question


def test_a_2026_suite_synced_from_git_brings_in_a_new_judge_prompt_file(tmp_path: Path) -> None:
    repo = repository(tmp_path / "repo")
    repo.commit({"evals/shop.eval.yaml": SHOP}, "shop")
    workspace = linked_workspace(repo)
    repo.commit({"evals/shop.eval.yaml": SHOP + JUDGED, "judges/grade.md": JUDGE}, "judged")

    sync_repository(workspace)

    assert workspace.files.get(path="judges/grade.md").text == JUDGE
