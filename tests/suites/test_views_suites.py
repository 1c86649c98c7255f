"""The suite page: cases in order, search, and adding, duplicating, deleting, moving cases."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Suite
from evals_app.services.cases.summaries import refresh_workspace
from evals_app.services.imports.folders import import_workspace
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def review(db: None) -> Suite:
    """A suite of three cases: review-js (two turns), review-py, triage."""
    team = factories.workspace("Team evals")
    suite = factories.suite(team, "evals/coding/review.yaml")
    factories.case(suite, "review-js", ("system", "You review code."), ("user", "Review app.js"))
    factories.case(suite, "review-py", ("user", "Review the Python loop"))
    factories.case(suite, "triage", ("user", "Sort these bugs"), outcome="Puts the crash FIRST")
    return suite


def url(name: str, suite: Suite, case: Case | None = None) -> str:
    args: list[Any] = [suite.workspace.slug, suite.pk]
    return reverse(name, args=[*args, case.pk] if case else args)


def case_ids(suite: Suite) -> list[str]:
    return list(suite.cases.order_by("position").values_list("case_id", flat=True))


def positions(suite: Suite) -> list[int]:
    return list(suite.cases.order_by("position").values_list("position", flat=True))


def named(suite: Suite, case_id: str) -> Case:
    return suite.cases.get(case_id=case_id)


def button_names(html: str) -> list[str]:
    """The accessible names of the buttons in `html` (their text, tags stripped)."""
    return [
        " ".join(re.sub(r"<[^>]+>", "", inner).split())
        for inner in re.findall(r"<button[^>]*>(.*?)</button>", html, re.S)
    ]


def test_anonymous_user_is_sent_to_the_login_page(client: Client, review: Suite) -> None:
    response = client.get(url("suite_detail", review))

    assert response.status_code == 302
    assert response["Location"].startswith("/login/?next=")


def test_anonymous_user_cannot_change_cases(client: Client, review: Suite) -> None:
    response = client.post(url("case_delete", review, named(review, "triage")))

    assert response.status_code == 302
    assert response["Location"].startswith("/login/")
    assert case_ids(review) == ["review-js", "review-py", "triage"]


def test_suite_page_lists_cases_in_order_with_their_ids_linking_to_the_editor(
    signed_in: Client, review: Suite
) -> None:
    response = signed_in.get(url("suite_detail", review))

    html = response.content.decode()
    assert response.status_code == 200
    links = re.findall(r'<a href="([^"]+/cases/\d+/)">([^<]+)</a>', html)
    assert [text for _, text in links] == ["review-js", "review-py", "triage"]
    assert links[0][0] == url("case_editor", review, named(review, "review-js"))


def test_suite_page_shows_the_number_of_input_turns(signed_in: Client, review: Suite) -> None:
    response = signed_in.get(url("suite_detail", review))

    row = re.search(r'<tr id="case-\d+">.*?review-js.*?</tr>', response.content.decode(), re.S)
    assert row is not None
    assert re.search(r'<td class="num" data-label="Input turns">2</td>', row.group())


def test_suite_page_describes_a_conversation_test_by_its_turns(
    signed_in: Client, example_root: Path
) -> None:
    workspace = import_workspace(example_root, "Example workspace").workspace
    suite = workspace.suites.get(path="evals/today/help-widget.eval.yaml")
    conversation = suite.cases.get(case_id="order-lookup")
    turns = len(conversation.document["turns"])

    html = signed_in.get(url("suite_detail", suite)).content.decode()

    row = re.search(rf'<tr id="case-{conversation.pk}">.*?</tr>', html, re.S)
    assert row is not None
    assert f'data-label="Input turns">{turns} turns · conversation</td>' in row.group()


def test_suite_page_says_markers_or_flat_with_the_engines_reason(
    signed_in: Client, review: Suite
) -> None:
    html = signed_in.get(url("suite_detail", review)).content.decode()

    assert "markers</span>" in html
    assert "2 turns with visible content" in html
    assert "flat</span>" in html
    assert "only one turn has visible content" in html


def test_suite_page_lists_each_cases_warnings(signed_in: Client, review: Suite) -> None:
    factories.attach_file(named(review, "triage"), "missing.md")

    html = signed_in.get(url("suite_detail", review)).content.decode()

    assert "1 warning</summary>" in html
    assert "missing.md" in html


def test_a_case_that_cannot_be_formatted_is_listed_with_the_reason(
    signed_in: Client, review: Suite
) -> None:
    broken = named(review, "triage")
    broken.document["input_messages"][0]["role"] = "narrator"  # stored before roles were checked
    Case.objects.filter(pk=broken.pk).update(document=broken.document, summary_current=False)
    refresh_workspace(review.workspace_id)  # the worker's part

    response = signed_in.get(url("suite_detail", review))

    assert response.status_code == 200
    assert "Cannot be formatted" in response.content.decode()


def test_unknown_suite_is_not_found(signed_in: Client, review: Suite) -> None:
    other = factories.suite(factories.workspace("Other"), "evals/a.yaml")

    response = signed_in.get(reverse("suite_detail", args=[review.workspace.slug, other.pk]))

    assert response.status_code == 404


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        pytest.param("REVIEW", ["review-js", "review-py"], id="id, ignoring case"),
        pytest.param("crash first", ["triage"], id="outcome"),
        pytest.param("python LOOP", ["review-py"], id="turn text"),
        pytest.param("you review", ["review-js"], id="system turn text"),
        pytest.param("nothing like this", [], id="no match"),
    ],
)
def test_search_matches_id_outcome_or_turn_text(
    signed_in: Client, review: Suite, query: str, expected: list[str]
) -> None:
    response = signed_in.get(url("suite_detail", review), {"q": query})

    assert [s.case.case_id for s in response.context["summaries"]] == expected


def test_search_says_how_many_cases_match(signed_in: Client, review: Suite) -> None:
    html = signed_in.get(url("suite_detail", review), {"q": "review"}).content.decode()

    assert "2 of 3 cases shown: match “review”" in html


def test_search_from_htmx_returns_only_the_table_of_cases(signed_in: Client, review: Suite) -> None:
    response = signed_in.get(url("suite_detail", review), {"q": "triage"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert 'id="case-search"' not in html  # the box being typed in is never swapped
    assert ">triage</a>" in html
    assert ">review-js</a>" not in html
    assert "HX-Request" in response["Vary"]


def test_htmx_history_restore_gets_the_whole_page(signed_in: Client, review: Suite) -> None:
    response = signed_in.get(
        url("suite_detail", review),
        HTTP_HX_REQUEST="true",
        HTTP_HX_HISTORY_RESTORE_REQUEST="true",
    )

    assert "<html" in response.content.decode()


def test_moving_is_offered_only_on_the_whole_list(signed_in: Client, review: Suite) -> None:
    searched = signed_in.get(url("suite_detail", review), {"q": "review"}).content.decode()
    whole = signed_in.get(url("suite_detail", review)).content.decode()

    assert "Move review-js down" not in button_names(searched)
    assert "Move review-js down" in button_names(whole)


def test_row_buttons_name_the_case_they_act_on(signed_in: Client, review: Suite) -> None:
    names = button_names(signed_in.get(url("suite_detail", review)).content.decode())

    for expected in (
        "Move review-py up",
        "Move review-py down",
        "Duplicate review-py",
        "Yes, delete review-py",
    ):
        assert expected in names


def test_first_case_cannot_move_up_and_last_cannot_move_down(
    signed_in: Client, review: Suite
) -> None:
    html = signed_in.get(url("suite_detail", review)).content.decode()

    first_up = named(review, "review-js").pk
    last_down = named(review, "triage").pk
    assert re.search(rf'id="move-up-{first_up}" disabled', html)
    assert re.search(rf'id="move-down-{last_down}" disabled', html)


def test_adding_a_case_opens_it_in_the_editor(signed_in: Client, review: Suite) -> None:
    response = signed_in.post(url("case_create", review), {"case_id": "review-go"})

    created = named(review, "review-go")
    assert response.status_code == 302
    assert response["Location"] == (
        f"/w/{review.workspace.slug}/suites/{review.pk}/cases/{created.pk}/"
    )


def test_added_case_comes_last_with_one_empty_user_turn(signed_in: Client, review: Suite) -> None:
    signed_in.post(url("case_create", review), {"case_id": "review-go"})

    created = named(review, "review-go")
    assert case_ids(review)[-1] == "review-go"
    assert created.document["input_messages"] == [{"role": "user", "content": ""}]


def test_adding_a_case_with_a_taken_id_shows_the_error_on_the_form(
    signed_in: Client, review: Suite
) -> None:
    response = signed_in.post(url("case_create", review), {"case_id": "triage"})

    assert response.status_code == 422
    assert "A case with id &#x27;triage&#x27; already exists in this suite." in (
        response.content.decode()
    )
    assert 'aria-invalid="true"' in response.content.decode()
    assert review.cases.count() == 3


def test_sending_the_add_case_form_twice_makes_one_case_and_no_error(
    signed_in: Client, review: Suite
) -> None:
    first = signed_in.post(url("case_create", review), {"case_id": "review-go"})
    second = signed_in.post(url("case_create", review), {"case_id": "review-go"}, follow=True)

    assert second.redirect_chain == [(first["Location"], 302)]
    assert review.cases.filter(case_id="review-go").count() == 1
    assert "already exists" not in second.content.decode()


def test_adding_an_id_someone_else_just_added_is_refused(client: Client, review: Suite) -> None:
    alice = factories.member(review.workspace, "editor", "alice")
    bob = factories.member(review.workspace, "editor", "bob")
    client.force_login(alice)
    client.post(url("case_create", review), {"case_id": "review-go"})
    client.force_login(bob)

    response = client.post(url("case_create", review), {"case_id": "review-go"})

    assert response.status_code == 422
    assert review.cases.filter(case_id="review-go").count() == 1


def test_adding_the_id_of_a_case_changed_since_is_refused(signed_in: Client, review: Suite) -> None:
    signed_in.post(url("case_create", review), {"case_id": "review-go"})
    Case.objects.filter(case_id="review-go").update(version=2)

    response = signed_in.post(url("case_create", review), {"case_id": "review-go"})

    assert response.status_code == 422


def test_adding_a_case_without_an_id_is_refused(signed_in: Client, review: Suite) -> None:
    response = signed_in.post(url("case_create", review), {"case_id": "   "})

    assert response.status_code == 422
    assert review.cases.count() == 3


def test_duplicating_places_the_copy_right_after_the_original(
    signed_in: Client, review: Suite
) -> None:
    response = signed_in.post(url("case_duplicate", review, named(review, "review-js")))

    assert response.status_code == 302
    assert response["Location"] == url("suite_detail", review)
    assert case_ids(review) == ["review-js", "review-js-copy", "review-py", "triage"]


def test_duplicating_again_numbers_the_copies(signed_in: Client, review: Suite) -> None:
    original = named(review, "triage")
    for _ in range(3):
        signed_in.post(url("case_duplicate", review, original))

    assert case_ids(review)[2:] == ["triage", "triage-copy-3", "triage-copy-2", "triage-copy"]


def test_a_duplicate_has_the_same_document_but_its_id(signed_in: Client, review: Suite) -> None:
    original = named(review, "review-js")
    original.document = {
        "x_owner": "qa",
        "id": "review-js",
        "outcome": "o",
        "input_messages": [{"role": "user", "content": ["Look", {"type": "image", "value": "a"}]}],
        "execution": {"target": "azure_base"},
    }
    original.save()

    signed_in.post(url("case_duplicate", review, original))

    copy = named(review, "review-js-copy")
    assert copy.document == {**original.document, "id": "review-js-copy"}
    assert list(copy.document) == list(original.document)


def test_duplicating_from_htmx_returns_the_table_with_a_status_message(
    signed_in: Client, review: Suite
) -> None:
    response = signed_in.post(
        url("case_duplicate", review, named(review, "triage")), HTTP_HX_REQUEST="true"
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert ">triage-copy</a>" in html
    assert "Duplicated triage as triage-copy." in html


def test_deleting_a_case_leaves_the_others_where_they_are(signed_in: Client, review: Suite) -> None:
    response = signed_in.post(url("case_delete", review, named(review, "review-js")))

    assert response.status_code == 302
    assert case_ids(review) == ["review-py", "triage"]
    assert positions(review) == [1, 2]


def test_delete_asks_for_confirmation_without_javascript(signed_in: Client, review: Suite) -> None:
    html = signed_in.get(url("suite_detail", review)).content.decode()

    assert re.search(r"<details class=\"confirm\">\s*<summary>Delete", html)
    assert "Yes, delete triage" in button_names(html)


def test_deleting_from_htmx_returns_the_table_without_the_case(
    signed_in: Client, review: Suite
) -> None:
    response = signed_in.post(
        url("case_delete", review, named(review, "triage")), HTTP_HX_REQUEST="true"
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert ">triage</a>" not in html
    assert "Deleted triage." in html


def test_deleting_after_a_search_goes_back_to_the_search(signed_in: Client, review: Suite) -> None:
    response = signed_in.post(url("case_delete", review, named(review, "triage")), {"q": "review"})

    assert response["Location"] == url("suite_detail", review) + "?q=review"


def test_moving_a_case_up_swaps_it_with_the_one_above(signed_in: Client, review: Suite) -> None:
    response = signed_in.post(
        url("case_move", review, named(review, "triage")), {"direction": "up"}
    )

    assert response.status_code == 302
    assert case_ids(review) == ["review-js", "triage", "review-py"]
    assert positions(review) == [0, 1, 2]


def test_moving_a_case_down_swaps_it_with_the_one_below(signed_in: Client, review: Suite) -> None:
    signed_in.post(url("case_move", review, named(review, "review-js")), {"direction": "down"})

    assert case_ids(review) == ["review-py", "review-js", "triage"]


def test_moving_the_first_case_up_changes_nothing(signed_in: Client, review: Suite) -> None:
    signed_in.post(url("case_move", review, named(review, "review-js")), {"direction": "up"})

    assert case_ids(review) == ["review-js", "review-py", "triage"]


def test_moving_from_htmx_returns_the_reordered_table(signed_in: Client, review: Suite) -> None:
    response = signed_in.post(
        url("case_move", review, named(review, "triage")),
        {"direction": "up"},
        HTTP_HX_REQUEST="true",
    )

    html = response.content.decode()
    assert html.index(">triage</a>") < html.index(">review-py</a>")
    assert "Moved triage up." in html


def test_moving_needs_a_direction(signed_in: Client, review: Suite) -> None:
    response = signed_in.post(
        url("case_move", review, named(review, "triage")), {"direction": "sideways"}
    )

    assert response.status_code == 400


def test_a_case_of_another_suite_is_not_found(signed_in: Client, review: Suite) -> None:
    other = factories.suite(review.workspace, "evals/other.yaml")
    stranger = factories.case(other, "stranger")

    response = signed_in.post(url("case_delete", review, stranger))

    assert response.status_code == 404
    assert other.cases.exists()


@pytest.mark.parametrize("name", ["case_create", "case_duplicate", "case_delete", "case_move"])
def test_case_changes_only_accept_post(signed_in: Client, review: Suite, name: str) -> None:
    case = None if name == "case_create" else named(review, "triage")

    assert signed_in.get(url(name, review, case)).status_code == 405


def test_case_changes_require_the_csrf_token(review: Suite) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(factories.user(password=None))

    response = client.post(url("case_delete", review, named(review, "triage")))

    assert response.status_code == 403
    assert review.cases.filter(case_id="triage").exists()


@pytest.fixture
def small_and_large(db: None) -> tuple[Suite, Suite]:
    """Two suites of one workspace, with 5 and 50 two-turn cases."""
    team = factories.workspace("Big")
    factories.workspace_file(team, "prompts/style.instructions.md", "Be kind.")
    small, large = (
        factories.suite(team, "evals/small.yaml"),
        factories.suite(team, "evals/big.yaml"),
    )
    for suite, count in ((small, 5), (large, 50)):
        for number in range(count):
            factories.case(suite, f"case-{number}", ("system", "Be brief."), ("user", "Hi"))
    return small, large


@pytest.mark.parametrize("query", [{}, {"q": "case"}], ids=["whole list", "search"])
def test_suite_page_queries_do_not_grow_with_the_number_of_cases(
    signed_in: Client,
    small_and_large: tuple[Suite, Suite],
    django_assert_max_num_queries: Any,
    query: dict[str, str],
) -> None:
    for suite in small_and_large:
        # the 10th: the suites to move cases to; the 11th: the reviewers to assign cases to;
        # then the suite's last run with AgentV, and the last run result of each listed case.
        with django_assert_max_num_queries(13):
            response = signed_in.get(url("suite_detail", suite), query)
        assert response.status_code == 200


def test_reordering_from_htmx_queries_do_not_grow_with_the_number_of_cases(
    signed_in: Client, small_and_large: tuple[Suite, Suite], django_assert_max_num_queries: Any
) -> None:
    for suite in small_and_large:
        # 16, one to record the move in the workspace's activity, one for the suites to move
        # cases to, one for the review form, one for the reviewers to assign cases to, two for
        # the runs with AgentV (the suite's last, each case's last result), and the swap of two
        # positions through a free one (three one-row UPDATEs).
        with django_assert_max_num_queries(24):
            response = signed_in.post(
                url("case_move", suite, named(suite, "case-3")),
                {"direction": "up"},
                HTTP_HX_REQUEST="true",
            )
        assert response.status_code == 200
