"""What the editor says to people who review or only read: the read-only note fits the role,
and a comment's "About" lists the turns before the expected messages, as the page does."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from django.test import Client

from evals_app.models import Workspace
from evals_app.services.imports.folders import import_workspace
from tests.editor.test_case_editor_views import case_named, editor_url
from tests.factories import member

pytestmark = pytest.mark.django_db

MULTI_TURN = "debug-checkout-typeerror"  # three input turns, one expected message


@pytest.fixture
def team(example_root: Path) -> Workspace:
    return import_workspace(example_root, "Example workspace").workspace


def editor_as(team: Workspace, role: str) -> str:
    client = Client()
    client.force_login(member(team, role, role))
    return unescape(client.get(editor_url(case_named(MULTI_TURN))).content.decode())


def read_only_note(html: str) -> str:
    found = re.search(r'<p class="muted" id="read-only-note">(.*?)</p>', html, re.S)
    assert found is not None
    return found.group(1)


def test_a_viewer_is_told_what_they_can_do_and_not_offered_comments(team: Workspace) -> None:
    note = read_only_note(editor_as(team, "viewer"))

    assert note.startswith("You are a viewer here: the case is read-only.")
    assert "commenting needs the reviewer or editor role" in note
    assert "are beside it" not in note


def test_a_reviewer_is_pointed_to_comments_and_review_steps(team: Workspace) -> None:
    note = read_only_note(editor_as(team, "reviewer"))

    assert "Comments and review steps are beside it; editing needs the editor role." in note


def test_about_lists_the_turns_before_the_expected_messages(team: Workspace) -> None:
    html = editor_as(team, "reviewer")

    select = re.search(r'<select id="comment-anchor".*?</select>', html, re.S)
    assert select is not None
    labels = re.findall(r"<option[^>]*>([^<]*)</option>", select.group())
    assert labels[0] == "The whole case"
    kinds = [label.split(" ")[0] for label in labels[1:]]
    assert kinds == sorted(kinds, key=lambda kind: kind != "Turn") and kinds[0] == "Turn"
    assert "Expected" in kinds
