"""Forking a case and taking its original's shared turns from the editor's buttons, without
JavaScript (docs/user-guide.md, "Variants")."""

from __future__ import annotations

import pytest
from django.test import Client

from evals_app.models import Case
from evals_app.services.cases.editing import save_case
from evals_app.services.cases.variants import fork_case
from tests.factories import case, member, suite, workspace

pytestmark = pytest.mark.django_db


def conversation() -> Case:
    turns = [("user", "Hi"), ("assistant", "Hello"), ("user", "Refund please")]
    return case(suite(workspace()), "refund", *turns, outcome="Offers the refund form")


def url(made: Case, action: str = "") -> str:
    return f"/w/{made.suite.workspace.slug}/suites/{made.suite.pk}/cases/{made.pk}/{action}"


def test_fork_opens_the_variant(signed_in: Client) -> None:
    original = conversation()

    response = signed_in.post(url(original, "fork/"), {"turn": "2"})

    variant = Case.objects.get(case_id="refund-variant")
    assert response.status_code == 302
    assert response["Location"] == url(variant)
    page = signed_in.get(url(variant)).content.decode()
    assert "A variant of" in page and "sharing its input turns 1 to 2" in page


def test_every_input_turn_offers_a_fork(signed_in: Client) -> None:
    page = signed_in.get(url(conversation())).content.decode()

    assert page.count(">Fork from here</button>") == 3


def test_a_fork_from_a_turn_that_is_not_there_is_refused_with_a_message(
    signed_in: Client,
) -> None:
    original = conversation()

    response = signed_in.post(url(original, "fork/"), {"turn": "9"}, follow=True)

    assert "There is no input turn 9 to fork from" in response.content.decode()
    assert Case.objects.count() == 1


@pytest.mark.parametrize("role", ["viewer", "reviewer"])
def test_only_editors_fork(client: Client, role: str) -> None:
    original = conversation()
    client.force_login(member(original.suite.workspace, role))

    response = client.post(url(original, "fork/"), {"turn": "2"})

    assert response.status_code == 403
    assert Case.objects.count() == 1


def test_take_the_change_from_the_variants_editor(signed_in: Client) -> None:
    original = conversation()
    variant = fork_case(original, 2)
    document = original.document
    document["input_messages"][0]["content"] = "Good morning"
    save_case(original, document, original.version)
    assert "The shared turns differ" in signed_in.get(url(variant)).content.decode()

    response = signed_in.post(
        url(variant, "take-prefix/"), {"version": str(variant.version)}, follow=True
    )

    assert "Took the original&#x27;s shared turns." in response.content.decode()
    taken = Case.objects.get(pk=variant.pk)
    assert taken.document["input_messages"][0]["content"] == "Good morning"


def test_taking_with_an_old_version_changes_nothing(signed_in: Client) -> None:
    original = conversation()
    variant = fork_case(original, 2)
    document = original.document
    document["input_messages"][0]["content"] = "Good morning"
    save_case(original, document, original.version)

    response = signed_in.post(url(variant, "take-prefix/"), {"version": "99"}, follow=True)

    assert "saved by someone else" in response.content.decode()
    assert Case.objects.get(pk=variant.pk).document["input_messages"][0]["content"] == "Hi"
