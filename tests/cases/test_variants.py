"""Variants of a conversation (docs/user-guide.md, "Variants"): fork at turn k, the link in
`metadata.variant_of`, and the offer to take the original's changed shared turns."""

from __future__ import annotations

import pytest
from django.test import Client

from evals_app.eval_files.errors import EvalFileError
from evals_app.eval_files.reading import read_eval_file
from evals_app.models import Case, Revision
from evals_app.services.cases.editing import save_case
from evals_app.services.cases.variants import (
    VariantLink,
    fork_case,
    prefix_change,
    take_prefix,
    variant_link,
)
from evals_app.services.exports.exporting import exported_texts
from tests.factories import case, suite, workspace

pytestmark = pytest.mark.django_db

TURNS = [
    ("system", "You are a support agent."),
    ("user", "I was charged twice."),
    ("assistant", "Sorry! Which order?"),
    ("user", "Order 42."),
    ("assistant", "Refunded."),
]


def conversation() -> Case:
    return case(suite(workspace()), "double-charge", *TURNS)


def test_a_fork_shares_the_turns_up_to_k_and_links_to_its_original() -> None:
    original = conversation()

    variant = fork_case(original, 3)

    document = variant.document
    assert [turn["content"] for turn in document["input_messages"]] == [t for _, t in TURNS[:3]]
    assert document["id"] == variant.case_id == "double-charge-variant"
    assert document["metadata"] == {"variant_of": {"id": "double-charge", "turn": 3}}
    assert variant_link(document) == VariantLink("double-charge", 3)
    assert Revision.objects.filter(case=variant).exists()


def test_a_fork_comes_right_after_its_original() -> None:
    original = conversation()
    later = case(original.suite, "later")

    variant = fork_case(original, 2)

    order = list(original.suite.cases.order_by("position").values_list("case_id", flat=True))
    assert order == ["double-charge", variant.case_id, "later"]
    assert later.case_id == "later"


def test_a_second_fork_gets_its_own_id() -> None:
    original = conversation()
    fork_case(original, 2)

    assert fork_case(original, 4).case_id == "double-charge-variant-2"


@pytest.mark.parametrize("turn", [0, 6, -1])
def test_a_fork_from_a_turn_the_case_has_not_is_refused(turn: int) -> None:
    original = conversation()

    with pytest.raises(EvalFileError, match="no input turn"):
        fork_case(original, turn)
    assert original.suite.cases.count() == 1


def test_a_variant_whose_shared_turns_are_the_originals_offers_nothing() -> None:
    variant = fork_case(conversation(), 3)

    assert prefix_change(variant) is None


def edit_first_turn(original: Case, text: str) -> Case:
    document = original.document
    document["input_messages"][0]["content"] = text
    return save_case(original, document, original.version)


def test_a_change_of_a_shared_turn_is_offered_with_its_diff() -> None:
    original = conversation()
    variant = fork_case(original, 3)

    edit_first_turn(original, "You are a careful support agent.")

    change = prefix_change(Case.objects.get(pk=variant.pk))
    assert change is not None
    assert "-  content: You are a support agent." in change.diff
    assert "+  content: You are a careful support agent." in change.diff


def test_a_change_after_the_shared_turns_is_not_offered() -> None:
    original = conversation()
    variant = fork_case(original, 3)
    document = original.document
    document["input_messages"][4]["content"] = "Refunded in full."
    save_case(original, document, original.version)

    assert prefix_change(Case.objects.get(pk=variant.pk)) is None


def test_taking_the_change_replaces_the_shared_turns_only() -> None:
    original = conversation()
    variant = fork_case(original, 3)
    document = variant.document
    document["input_messages"].append({"role": "user", "content": "Actually, order 43."})
    variant = save_case(variant, document, variant.version)
    edit_first_turn(original, "You are a careful support agent.")

    taken = take_prefix(variant, variant.version)

    contents = [turn["content"] for turn in taken.document["input_messages"]]
    assert contents == [
        "You are a careful support agent.",
        "I was charged twice.",
        "Sorry! Which order?",
        "Actually, order 43.",
    ]
    assert prefix_change(taken) is None
    assert taken.version == variant.version + 1


def test_nothing_to_take_is_refused() -> None:
    variant = fork_case(conversation(), 3)

    with pytest.raises(EvalFileError, match="the same"):
        take_prefix(variant, variant.version)


def test_the_link_survives_an_export_and_a_read_back() -> None:
    original = conversation()
    fork_case(original, 3)

    texts = dict(exported_texts(original.suite.workspace))
    read = read_eval_file(texts["evals/review.yaml"])

    links = [variant_link(document) for document in read.cases]
    assert links == [None, VariantLink("double-charge", 3)]


def test_the_suite_page_marks_a_variant_under_its_original(signed_in: Client) -> None:
    original = conversation()
    fork_case(original, 3)

    page = signed_in.get(f"/w/{original.suite.workspace.slug}/suites/{original.suite.pk}/")

    html = page.content.decode()
    assert "variant of double-charge · turn 3" in html
    assert html.index(">double-charge<") < html.index(">double-charge-variant<")
