"""A case id typed in the app obeys the same rules at every door: the suite page's new-case
form, the editor (a rename), Paste YAML, duplication and a move to another suite. An id must be
non-empty, printable, without spaces at its ends, and unique in its suite."""

from __future__ import annotations

from html import unescape

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from evals_app.eval_files.yaml_dumper import dump_yaml
from evals_app.models import Case, Suite
from tests import factories
from tests.html_forms import form_fields

pytestmark = pytest.mark.django_db

BAD_IDS = [
    pytest.param("", "a case id must be non-empty text", id="empty"),
    pytest.param(" review", "an id cannot start or end with a space", id="leading space"),
    pytest.param("review ", "an id cannot start or end with a space", id="trailing space"),
    pytest.param("two\tparts", "cannot hold line breaks, tabs", id="tab"),
    pytest.param("two\nlines", "cannot hold line breaks, tabs", id="line break"),
    pytest.param("bell\x07", "cannot hold line breaks, tabs", id="control character"),
]


@pytest.fixture
def suite(db: None) -> Suite:
    workspace = factories.workspace("Doors")
    suite = factories.suite(workspace, "evals/review.yaml")
    factories.case(suite, "first")
    factories.case(suite, "second")
    return suite


@pytest.fixture
def client(suite: Suite) -> Client:
    client = Client()
    client.force_login(factories.member(suite.workspace, "editor"))
    return client


def case_url(case: Case, suffix: str = "") -> str:
    suite = case.suite
    return reverse("case_editor", args=[suite.workspace.slug, suite.pk, case.pk]) + suffix


def ids(suite: Suite) -> list[str]:
    return list(suite.cases.order_by("position").values_list("case_id", flat=True))


@pytest.mark.parametrize(("case_id", "message"), BAD_IDS)
def test_the_new_case_form_refuses_a_bad_id(
    client: Client, suite: Suite, case_id: str, message: str
) -> None:
    response = client.post(
        reverse("case_create", args=[suite.workspace.slug, suite.pk]), {"case_id": case_id}
    )

    assert response.status_code == 422
    # An empty field is refused by the form itself, before the rules of ids.
    expected = "This field is required." if not case_id else message
    assert expected.lower() in unescape(response.content.decode()).lower()
    assert ids(suite) == ["first", "second"]


@pytest.mark.parametrize(("case_id", "message"), BAD_IDS)
def test_the_editor_refuses_to_rename_a_case_to_a_bad_id(
    client: Client, suite: Suite, case_id: str, message: str
) -> None:
    case = suite.cases.get(case_id="first")
    form = form_fields(client.get(case_url(case)).content.decode(), "case-form")

    response = client.post(case_url(case), {**form, "id": case_id, "action": "save"})

    assert response.status_code == 422
    assert message in unescape(response.content.decode())
    assert ids(suite) == ["first", "second"]


@pytest.mark.parametrize(("case_id", "message"), BAD_IDS)
def test_paste_yaml_refuses_a_bad_id(
    client: Client, suite: Suite, case_id: str, message: str
) -> None:
    snippet = factories.simple_case(case_id)

    response = client.post(
        reverse("case_paste", args=[suite.workspace.slug, suite.pk]), {"yaml": dump_yaml(snippet)}
    )

    assert response.status_code == 422
    assert message in unescape(response.content.decode())
    assert ids(suite) == ["first", "second"]


def test_the_new_case_form_and_the_editor_refuse_an_id_the_suite_has(
    client: Client, suite: Suite
) -> None:
    created = client.post(
        reverse("case_create", args=[suite.workspace.slug, suite.pk]), {"case_id": "second"}
    )
    case = suite.cases.get(case_id="first")
    form = form_fields(client.get(case_url(case)).content.decode(), "case-form")
    renamed = client.post(case_url(case), {**form, "id": "second", "action": "save"})

    assert created.status_code == renamed.status_code == 422
    assert "A case with id 'second' already exists in this suite." in unescape(
        created.content.decode()
    )
    assert "another case of this suite has this id" in renamed.content.decode()
    assert ids(suite) == ["first", "second"]


def test_a_move_refuses_a_case_whose_id_the_other_suite_has(client: Client, suite: Suite) -> None:
    other = factories.suite(suite.workspace, "evals/other.yaml")
    factories.case(other, "second")
    moving = [str(suite.cases.get(case_id=case_id).pk) for case_id in ("first", "second")]

    response = client.post(
        reverse("case_bulk", args=[suite.workspace.slug, suite.pk]),
        {"action": "move", "cases": moving, "target": str(other.pk)},
    )

    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert "Not done: second: evals/other.yaml already has a case with this id." in said
    assert ids(suite) == ["second"]
    assert ids(other) == ["second", "first"]


def test_duplicating_a_case_whose_imported_id_the_app_refuses_says_why(
    client: Client, suite: Suite
) -> None:
    # Import only warns about such an id; the copy would be a new id typed by the app.
    spaced = factories.case(suite, " spaced")

    response = client.post(case_url(spaced, "duplicate/"), follow=True)

    assert "The copy&#x27;s id &#x27; spaced-copy&#x27; is refused: an id cannot start" in (
        response.content.decode()
    )
    assert ids(suite) == ["first", "second", " spaced"]
