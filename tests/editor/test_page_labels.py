"""What the editor's pages say matches what they do: the list a case's YAML belongs to, and
what the review shortcuts do."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case
from tests import factories

pytestmark = pytest.mark.django_db


def page(case: Case, name: str) -> str:
    client = Client()
    client.force_login(factories.admin())
    url = reverse(name, args=[case.suite.workspace.slug, case.suite_id, case.pk])
    return client.get(url).content.decode()


@pytest.mark.parametrize(
    ("document", "cases_key", "said"),
    [
        ({"tests": []}, "tests", "as an item of <code>tests:</code>"),
        ({"evalcases": []}, "evalcases", "as an item of <code>evalcases:</code>"),
        ({}, "", "as an item of the list of cases"),
    ],
)
def test_the_yaml_view_names_the_list_the_case_is_an_item_of(
    document: dict[str, list[object]], cases_key: str, said: str
) -> None:
    suite = factories.suite(factories.workspace(), document=document, cases_key=cases_key)
    case = factories.case(suite, "refund")
    assert said in page(case, "case_yaml")


def test_the_shortcuts_say_that_a_prepares_the_approval_and_enter_confirms_it() -> None:
    case = factories.case(factories.suite(factories.workspace()), "refund")
    html = page(case, "case_editor")
    assert (
        "<dt><kbd>a</kbd></dt><dd>Approve: the cursor goes to the review note, then "
        "<kbd>Enter</kbd> approves and <kbd>Esc</kbd> cancels</dd>"
    ) in html
