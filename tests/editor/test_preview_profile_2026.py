"""The case editor's preview of a test of the AgentV 2026 profile: per expanded test the
question, the system message (AgentV's default when none is written) and the judge prompt
("not graded: no assert" without one), in both modes (docs/formatting.md)."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from evals_app.models import Case
from evals_app.services.imports.folders import import_workspace
from tests import factories
from tests.editor.test_case_editor_views import editor_url, form_of

pytestmark = pytest.mark.django_db

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "today"


@pytest.fixture
def client() -> Client:
    import_workspace(FIXTURE, "Today")
    client = Client()
    client.force_login(factories.admin())
    return client


def stored_test(case_id: str) -> Case:
    return Case.objects.select_related("suite__workspace").get(case_id=case_id)


def preview(client: Client, case: Case, **changes: str) -> str:
    form = form_of(client.get(editor_url(case)).content.decode())
    response = client.post(
        editor_url(case, "preview/"),
        json.dumps({**form, **changes}),
        content_type="application/json",
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    return unescape(response.content.decode())


def sections(html: str) -> list[str]:
    return re.findall(r'<section aria-label="Expanded test ([^"]+)"', html)


def test_the_editor_page_previews_each_expanded_test(client: Client) -> None:
    html = unescape(client.get(editor_url(stored_test("greet-{{ lang }}"))).content.decode())
    assert sections(html) == ["greet-en", "greet-fr"]
    assert "runs this test as 2 tests" in html
    assert "@[System]:\nYou work at Tea & Co.\n\n@[User]:\nGreet the customer in fr." in html
    assert '<pre class="prompt system-message">\nYou work at Tea & Co.</pre>' in html
    assert "- [rubric-1] (REQUIRED): Greets politely" in html
    assert "Guidelines" not in html


def test_agent_mode_shows_absolute_paths(client: Client) -> None:
    html = preview(client, stored_test("greet-{{ lang }}"), preview_mode="agent")
    assert f'<file: path="{FIXTURE.as_posix()}/docs/menu.md">' in html


def test_without_assert_the_test_is_not_graded_and_gets_agentvs_default(client: Client) -> None:
    html = preview(client, stored_test("not-graded"))
    assert sections(html) == ["not-graded"]
    assert "not graded: no assert" in html
    assert "(AgentV's default)" in html


def test_the_preview_follows_unsaved_text(client: Client) -> None:
    html = preview(client, stored_test("not-graded"), **{"input-0-block-0-value": "Hi {{ 6 * 7 }}"})
    assert '<pre class="prompt formatted-question">\nHi 42</pre>' in html


def test_a_conversation_test_shows_each_turn(client: Client) -> None:
    html = preview(client, stored_test("chat"))
    assert "Turn 2" in html
    assert "Yes.</pre>" in html
    assert "Judge prompt of this turn" in html


def test_a_candidate_answer_fills_the_judge_prompt(client: Client) -> None:
    html = preview(client, stored_test("judged-by-file"), candidate_answer="Forty-nine")
    assert "Answer: Forty-nine" in html


def test_the_suite_page_summarises_each_test_by_the_2026_profile(client: Client) -> None:
    suite = stored_test("chat").suite
    html = unescape(client.get(f"/w/{suite.workspace.slug}/suites/{suite.pk}/").content.decode())
    greet = stored_test("greet-{{ lang }}")
    assert (greet.role_markers, greet.marker_reason) == (True, "2 turns with visible content")
    not_graded = stored_test("not-graded")
    assert (not_graded.role_markers, not_graded.marker_reason) == (
        False,
        "only one turn has visible content",
    )
    assert "greet-{{ lang }}" in html


@pytest.mark.parametrize("mode", ["lm", "agent"])
def test_the_preview_shows_what_formatted_jsonl_holds_for_every_test(
    client: Client, mode: str, tmp_path: Path
) -> None:
    call_command("export_evals", "--out", str(tmp_path), "--mode", mode)
    lines = (tmp_path / "today" / "formatted.jsonl").read_text().splitlines()
    rows = {row["id"]: row for row in map(json.loads, lines)}
    shown: dict[str, tuple[str, str | None]] = {}

    for case in Case.objects.all():
        html = preview(client, case, preview_mode=mode)
        for chunk in html.split('<section aria-label="Expanded test ')[1:]:
            test_id, body = chunk.split('"', 1)
            question = re.search(
                r'<pre class="prompt formatted-question">\n(.*?)</pre>', body, re.S
            )
            system = re.search(r'<pre class="prompt system-message">\n(.*?)</pre>', body, re.S)
            assert question is not None
            shown[test_id] = (question.group(1), system.group(1) if system else None)

    assert shown == {key: (row["question"], row["system_message"]) for key, row in rows.items()}


def test_the_preview_lints_the_test_and_counts_its_tokens(client: Client) -> None:
    html = preview(client, stored_test("greet-{{ lang }}"))

    lint = html[html.index('id="lint-findings"') : html.index('id="token-counts"')]
    assert "No finding for the case as a whole" in lint
    tokens = html[html.index('id="token-counts"') :]
    assert tokens.count('<td class="num model-tokens">') == 2  # one row per expanded test
    assert '<th scope="row">greet-en</th>' in tokens
