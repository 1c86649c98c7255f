"""The preview of a today's test names its prompt only when the test's id does: with one
prompt, its generated id (`prompt-C43D…`) would mean nothing to a reader."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.eval_files.dialects import PROFILES
from evals_app.models import Case
from evals_app.services.cases.summaries import refresh_case
from tests import factories

pytestmark = pytest.mark.django_db


def headings(prompts: list[str]) -> list[str]:
    """The preview's headings of a test of a suite with `prompts`."""
    workspace = factories.workspace()
    suite = factories.suite(
        workspace,
        document={"prompts": prompts, "tests": [None]},
        cases_key="tests",
        profile=PROFILES[1],
    )
    document = {"id": "refund", "criteria": "Names the window.", "vars": {"input": "Refund?"}}
    case = Case(suite=suite, position=0, case_id="refund", document=document)
    refresh_case(case, suite)
    case.save()
    client = Client()
    client.force_login(factories.admin())
    html = client.get(reverse("case_editor", args=[workspace.slug, suite.pk, case.pk]))
    found = re.findall(
        r'class="preview-section expanded-test">\s*<h2>(.*?)</h2>', html.content.decode()
    )
    return [unescape(re.sub(r"<[^>]+>", "", heading)) for heading in found]


def test_a_test_of_a_suite_with_one_prompt_is_headed_by_its_id_alone() -> None:
    assert headings(["{{ input }}"]) == ["refund"]


def test_the_tests_of_several_prompts_are_headed_by_their_ids_and_prompts() -> None:
    found = headings(["{{ input }}", "Answer briefly: {{ input }}"])
    assert len(found) == 2
    assert all(re.fullmatch(r"refund__prompt_(\S+) prompt \1", heading) for heading in found)
