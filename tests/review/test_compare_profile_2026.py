"""Comparing two revisions of a test of an AgentV 2026 suite: what the model and the judge see,
per expanded test (matched by its id), formatted by the 2026 profile."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case
from evals_app.services.cases.editing import save_case
from tests import factories

pytestmark = pytest.mark.django_db

SHOP = """\
prompts:
  - "{{ input }}"
tests:
  - id: greet-{{ lang }}
    criteria: Greets politely.
    vars:
      lang: [en]
      input:
        - role: system
          content: You work at Tea & Co.
        - role: user
          content: Greet the customer in {{ lang }}.
    assert:
      - type: llm-rubric
        prompt: file://judges/greeting.md
  - id: chat
    mode: conversation
    vars:
      input:
        - role: system
          content: Be brief.
    turns:
      - input: Do you sell tea?
        expected_output: "Yes."
      - input: Which kinds?
"""


@pytest.fixture
def cases(tmp_path: Path) -> dict[str, Case]:
    judge = "Grade the answer.\nCriteria: {{criteria}}\nAnswer: {{output}}\n"
    root = factories.write_files(
        tmp_path, {"evals/shop.eval.yaml": SHOP, "judges/greeting.md": judge}
    )
    suite = factories.imported_workspace(root, "Shop").suites.get()
    assert suite.profile == "agentv-2026"
    return {case.case_id: case for case in suite.cases.all()}


def compare(case: Case, change: dict[str, Any]) -> str:
    """The compare page of revisions 1 (as imported) and 2 (with `change` saved)."""
    editor = factories.member(case.suite.workspace, "editor", "alice")
    save_case(case, {**case.document, **change}, case.version, editor)
    client = Client()
    client.force_login(editor)
    url = reverse("case_compare", args=[case.suite.workspace.slug, case.suite_id, case.pk])
    response = client.get(url + "?from=1&to=2")
    assert response.status_code == 200
    return unescape(response.content.decode())


def rows(html: str, label: str) -> list[tuple[str, str, str]]:
    """(op, old line, new line) of the line diff labelled `label`."""
    # The outer table ends on its own line; folded runs are tables inside it.
    opening = f'<table class="diff line-diff" aria-label="{re.escape(label)}">'
    table = re.search(rf"{opening}(.*?)</tbody>\n\s*</table>", html, re.S)
    assert table is not None, f"no table {label!r}"
    return [
        (op, old.strip(), new.strip())
        for op, old, new in re.findall(
            r'<tr class="(\w+)"><td>(?:<pre>(.*?)</pre>)?</td><td>(?:<pre>(.*?)</pre>)?</td></tr>',
            table.group(1),
            re.S,
        )
    ]


def test_the_changed_question_line_and_judge_prompt_show_per_expanded_test(
    cases: dict[str, Case],
) -> None:
    case = cases["greet-{{ lang }}"]
    variables = case.document["vars"]
    user = {"role": "user", "content": "Greet the customer warmly in {{ lang }}."}

    html = compare(
        case,
        {
            "criteria": "Greets warmly.",
            "vars": {**variables, "input": [variables["input"][0], user]},
        },
    )

    assert "Test <code>greet-en</code>: changed" in html
    question = rows(html, "Formatted question of greet-en, revision 1 and 2")
    assert (
        "replace",
        "Greet the customer in en.",
        "Greet the customer warmly in en.",
    ) in question
    assert ("equal", "You work at Tea & Co.", "You work at Tea & Co.") in question
    judge = rows(html, "Judge prompt 1 (llm-rubric) of greet-en, revision 1 and 2")
    assert ("replace", "Criteria: Greets politely.", "Criteria: Greets warmly.") in judge
    assert rows(html, "System message of greet-en, revision 1 and 2") == [
        ("equal", "You work at Tea & Co.", "You work at Tea & Co.")
    ]


def test_an_expanded_test_only_in_the_newer_revision_shows_all_added(
    cases: dict[str, Case],
) -> None:
    case = cases["greet-{{ lang }}"]

    html = compare(case, {"vars": {**case.document["vars"], "lang": ["en", "fr"]}})

    assert "Test <code>greet-en</code>: unchanged" in html
    assert "Test <code>greet-fr</code>: only in revision 2" in html
    question = rows(html, "Formatted question of greet-fr, revision 1 and 2")
    assert question and all(op == "insert" and old == "" for op, old, _ in question)
    assert ("insert", "", "Greet the customer in fr.") in question


def test_a_conversation_test_compares_each_turns_chat_messages(cases: dict[str, Case]) -> None:
    case = cases["chat"]
    turns = case.document["turns"]

    html = compare(case, {"turns": [turns[0], {"input": "Which teas?"}]})

    first = rows(html, "Turn 1: chat messages of chat, revision 1 and 2")
    assert all(op == "equal" for op, _, _ in first)
    second = rows(html, "Turn 2: chat messages of chat, revision 1 and 2")
    assert ("replace", "Which kinds?", "Which teas?") in second
    assert ("equal", "@[Assistant]:", "@[Assistant]:") in second
