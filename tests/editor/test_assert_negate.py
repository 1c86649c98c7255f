"""The form editor's Negate box turns a check round (`negate: true`), as AgentV's assertion
option does; an assert's `negate` is edited there, not as YAML."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from evals_app.models import Case
from tests import factories
from tests.editor.test_case_editor_views import editor_url
from tests.editor.test_period_editor import opened, saved

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(db: None) -> Client:
    client = Client()
    client.force_login(factories.admin())
    return client


def today_case(asserted: dict[str, Any]) -> Case:
    suite = factories.suite(
        factories.workspace("Today"),
        "evals/today.yaml",
        document={"prompts": ["{{ input }}"], "tests": []},
        cases_key="tests",
        profile="agentv-2026",
    )
    document = {"id": "tone", "vars": {"input": "Where is my parcel?"}, "assert": [asserted]}
    return Case.objects.create(suite=suite, position=0, case_id="tone", document=document)


def test_ticking_negate_writes_negate_true(editor: Client) -> None:
    case = today_case({"type": "contains", "value": "sorry"})
    html = editor.get(editor_url(case)).content.decode()
    assert '<label for="assert-0-negate">Negate</label>' in html
    assert "The answer must NOT contain this text" in html

    document = saved(editor, case, {**opened(editor, case), "assert-0-negate": "on"})

    assert document["assert"] == [{"type": "contains", "value": "sorry", "negate": True}]


def test_unticking_negate_removes_it(editor: Client) -> None:
    case = today_case({"type": "regex", "negate": True, "value": "^Sorry"})
    form = opened(editor, case)
    assert form["assert-0-negate"] == "on"
    form.pop("assert-0-negate")

    document = saved(editor, case, form)

    assert document["assert"] == [{"type": "regex", "value": "^Sorry"}]


def test_a_written_negate_false_stays_while_the_box_stays_unticked(editor: Client) -> None:
    case = today_case({"type": "equals", "value": "Yes", "negate": False})

    document = saved(editor, case, {**opened(editor, case), "assert-0-value": "No"})

    assert document["assert"] == [{"type": "equals", "value": "No", "negate": False}]
