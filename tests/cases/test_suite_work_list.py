"""The suite page as a work list: filter by review status, warnings, role markers and tag, sort
by id, status and last change; all of it in the query string, beside search and pages."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from evals_app.models import Case, ReviewStatus, Suite
from evals_app.services.cases.summaries import refresh_workspace
from evals_app.services.cases.tags import case_tags, cases_tagged
from evals_app.services.workspaces.configs import set_guideline_patterns
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def work(db: None) -> Suite:
    """Four cases, one of each kind:

    - alpha: one user turn (flat), draft, tagged smoke;
    - bravo: system, user and assistant turns (markers), in review, tagged smoke and billing;
    - charlie: a user turn with a missing file (flat, one warning), approved, tagged other, with
      "smoke" as another key's value;
    - delta: a turn whose role no AgentV knows, stored before roles were checked (cannot be
      formatted), changes requested, tagged "Smoke" (one string).
    """
    team = factories.workspace("Work list")
    suite = factories.suite(team, "evals/work.yaml")
    factories.case(suite, "alpha", tags=["smoke"])
    factories.case(
        suite,
        "bravo",
        ("system", "Be brief."),
        ("user", "Hi"),
        ("assistant", "Hello."),
        status=ReviewStatus.IN_REVIEW,
        tags=["smoke", "billing"],
    )
    charlie = factories.case(
        suite,
        "charlie",
        status=ReviewStatus.APPROVED,
        tags=["other"],
        note="smoke",
    )
    factories.attach_file(charlie, "missing.md")
    Case.objects.create(
        suite=suite,
        position=3,
        case_id="delta",
        document={
            "id": "delta",
            "outcome": "o",
            "input_messages": [{"role": "narrator", "content": "Once upon a time"}],
            "tags": "Smoke",
        },
        status=ReviewStatus.CHANGES_REQUESTED,
    )
    refresh_workspace(team.pk)  # what the worker does for delta, stored without a summary
    return suite


def page_url(suite: Suite) -> str:
    return reverse("suite_detail", args=[suite.workspace.slug, suite.pk])


def listed(client: Client, suite: Suite, **query: str) -> list[str]:
    """The ids the suite page lists for `query`, in order."""
    response = client.get(page_url(suite), query)
    assert response.status_code == 200
    return [summary.case.case_id for summary in response.context["summaries"]]


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        ("draft", ["alpha"]),
        ("in_review", ["bravo"]),
        ("changes_requested", ["delta"]),
        ("approved", ["charlie"]),
        ("", ["alpha", "bravo", "charlie", "delta"]),
    ],
)
def test_filtering_by_review_status(
    signed_in: Client, work: Suite, status: str, expected: list[str]
) -> None:
    assert listed(signed_in, work, status=status) == expected


@pytest.mark.parametrize(
    ("warnings", "expected"),
    [("with", ["charlie"]), ("without", ["alpha", "bravo"])],
)
def test_filtering_by_warnings_leaves_out_cases_that_cannot_be_formatted(
    signed_in: Client, work: Suite, warnings: str, expected: list[str]
) -> None:
    assert listed(signed_in, work, warnings=warnings) == expected


@pytest.mark.parametrize(
    ("markers", "expected"),
    [("markers", ["bravo"]), ("flat", ["alpha", "charlie"]), ("cannot", ["delta"])],
)
def test_filtering_by_role_marker_decision(
    signed_in: Client, work: Suite, markers: str, expected: list[str]
) -> None:
    assert listed(signed_in, work, markers=markers) == expected


@pytest.mark.usefixtures("tasks_in_the_database")
def test_the_summary_filters_say_when_summaries_wait_for_the_worker_and_compute_none(
    signed_in: Client, work: Suite
) -> None:
    set_guideline_patterns(work.workspace, "**/*.md")  # every summary out of date
    rows = list(Case.objects.values_list("pk", "updated_at", "summary_generation"))

    with CaptureQueriesContext(connection) as queries:
        html = signed_in.get(page_url(work), {"markers": "markers"}).content.decode()

    assert "Warnings and role markers are being recomputed: until they are, this filter" in html
    writes = ("INSERT", "UPDATE", "DELETE")
    assert not [query for query in queries if query["sql"].lstrip("(").startswith(writes)]
    assert list(Case.objects.values_list("pk", "updated_at", "summary_generation")) == rows
    refresh_workspace(work.workspace_id)
    html = signed_in.get(page_url(work), {"markers": "markers"}).content.decode()
    assert "being recomputed" not in html
    assert listed(signed_in, work, markers="markers", status="in_review") == ["bravo"]


@pytest.mark.usefixtures("tasks_in_the_database")
def test_a_case_whose_summary_waits_for_the_worker_says_so_in_its_row(
    signed_in: Client, work: Suite
) -> None:
    Case.objects.filter(case_id="charlie").update(summary_current=False)

    response = signed_in.get(page_url(work))

    rows = {summary.case.case_id: summary.current for summary in response.context["summaries"]}
    assert rows == {"alpha": True, "bravo": True, "charlie": False, "delta": True}
    assert response.content.decode().count('<span class="muted">being recomputed</span>') == 2


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        pytest.param("smoke", ["alpha", "bravo"], id="exact, not another key's value"),
        pytest.param("Smoke", ["delta"], id="case matters, one string is one tag"),
        pytest.param("billing", ["bravo"], id="any place in the list"),
        pytest.param("smok", [], id="no prefix"),
        pytest.param('sm"oke', [], id="quotes"),
    ],
)
def test_filtering_by_tag_matches_the_tag_exactly(
    signed_in: Client, work: Suite, tag: str, expected: list[str]
) -> None:
    assert listed(signed_in, work, tag=tag) == expected


def test_tags_are_read_from_the_case_mapping() -> None:
    assert case_tags({"tags": ["a", "b"]}) == ["a", "b"]
    assert case_tags({"tags": "a"}) == ["a"]
    assert case_tags({"tags": ["a", 2024, None]}) == ["a"]
    assert case_tags({"tags": None}) == []
    assert case_tags({"id": "x"}) == []


def test_a_tag_with_quotes_and_backslashes_is_found(work: Suite) -> None:
    tag = 'say "hi" \\ bye é'
    factories.case(work, "echo", tags=[tag])

    assert [case.case_id for case in cases_tagged(work.cases.all(), tag)] == ["echo"]


def test_each_case_shows_its_tags_as_links_to_the_filter(signed_in: Client, work: Suite) -> None:
    html = signed_in.get(page_url(work)).content.decode()

    assert re.search(rf'href="{page_url(work)}\?tag=billing" class="tag"[^>]*>billing</a>', html)


def test_filters_combine_with_each_other_and_with_search(signed_in: Client, work: Suite) -> None:
    assert listed(signed_in, work, tag="smoke", markers="flat") == ["alpha"]
    assert listed(signed_in, work, q="bravo", tag="smoke") == ["bravo"]
    assert listed(signed_in, work, q="alpha", status="approved") == []


def test_an_unknown_filter_value_shows_the_whole_suite(signed_in: Client, work: Suite) -> None:
    assert listed(signed_in, work, status="lost", markers="x", sort="y") == [
        "alpha",
        "bravo",
        "charlie",
        "delta",
    ]


def test_a_filtered_list_says_how_many_cases_it_shows(signed_in: Client, work: Suite) -> None:
    html = signed_in.get(page_url(work), {"tag": "smoke"}).content.decode()

    assert "2 of 4 cases shown: tagged “smoke”." in html


def test_a_searchs_count_names_every_other_filter_it_is_narrowed_by(
    signed_in: Client, work: Suite
) -> None:
    query = {"q": "a", "status": "draft", "warnings": "without", "markers": "flat", "tag": "smoke"}

    html = signed_in.get(page_url(work), query).content.decode()

    count = len(listed(signed_in, work, **query))
    assert (
        f"{count} of 4 cases shown: match “a”, review: Draft, without warnings, "
        "formatting: Flat, tagged “smoke”." in html
    )


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ("", ["alpha", "bravo", "charlie", "delta"]),
        ("id", ["alpha", "bravo", "charlie", "delta"]),
        ("-id", ["delta", "charlie", "bravo", "alpha"]),
        ("status", ["alpha", "bravo", "delta", "charlie"]),
        ("-status", ["charlie", "delta", "bravo", "alpha"]),
        ("changed", ["charlie", "alpha", "delta", "bravo"]),
        ("-changed", ["bravo", "delta", "alpha", "charlie"]),
    ],
)
def test_sorting_by_id_status_and_last_change_both_ways(
    signed_in: Client, work: Suite, sort: str, expected: list[str]
) -> None:
    # Make the suite's order differ from the id order, and give each case its own last change.
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for hours, case_id in enumerate(["charlie", "alpha", "delta", "bravo"]):
        work.cases.filter(case_id=case_id).update(updated_at=start + timedelta(hours=hours))

    assert listed(signed_in, work, sort=sort) == expected


def test_the_suite_order_is_kept_where_sorting_ties(signed_in: Client, work: Suite) -> None:
    work.cases.update(status=ReviewStatus.DRAFT)

    assert listed(signed_in, work, sort="-status") == ["alpha", "bravo", "charlie", "delta"]


def test_moving_cases_up_and_down_is_offered_only_on_the_unfiltered_suite_order(
    signed_in: Client, work: Suite
) -> None:
    for query in ({"sort": "id"}, {"status": "draft"}, {"tag": "smoke"}):
        assert "Move<span" not in signed_in.get(page_url(work), query).content.decode()
    assert "Move<span" in signed_in.get(page_url(work)).content.decode()


def test_the_filter_form_is_a_get_form_showing_the_current_choices(
    signed_in: Client, work: Suite
) -> None:
    html = signed_in.get(page_url(work), {"status": "approved", "sort": "-id"}).content.decode()

    form = re.search(r'<form method="get"[^>]*role="search".*?</form>', html, re.S)
    assert form is not None
    assert re.search(r'<option value="approved" selected>Approved</option>', form[0])
    assert re.search(r'<option value="-id" selected>Id, Z to A</option>', form[0])
    for label in ("Search cases", "Review", "Warnings", "Role markers", "Tag", "Sort by"):
        assert re.search(rf"<label for=\"[^\"]+\">{label}</label>", form[0]), label


def test_pages_keep_the_filters_and_the_order(signed_in: Client, work: Suite) -> None:
    for number in range(60):
        factories.case(work, f"case-{number:02d}", tags=["bulk"])

    html = signed_in.get(page_url(work), {"tag": "bulk", "sort": "-id"}).content.decode()

    link = re.search(r'href="\?([^"]+)" rel="next"', html)
    assert link is not None
    assert parse_qs(link[1].replace("&amp;", "&")) == {
        "tag": ["bulk"],
        "sort": ["-id"],
        "page": ["2"],
    }
    page_two = signed_in.get(page_url(work), {"tag": "bulk", "sort": "-id", "page": "2"})
    assert [s.case.case_id for s in page_two.context["summaries"]] == [
        f"case-{number:02d}" for number in range(9, -1, -1)
    ]


def test_htmx_gets_the_filtered_table_only(signed_in: Client, work: Suite) -> None:
    response = signed_in.get(page_url(work), {"status": "approved"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert "<html" not in html
    assert 'role="search"' not in html  # the form being used is never swapped
    assert ">charlie</a>" in html and ">alpha</a>" not in html


def test_changing_a_case_in_a_filtered_list_comes_back_to_that_list(
    signed_in: Client, work: Suite
) -> None:
    alpha = work.cases.get(case_id="alpha")
    url = reverse("case_duplicate", args=[work.workspace.slug, work.pk, alpha.pk])

    response = signed_in.post(url, {"tag": "smoke", "sort": "-id", "page": "1"})

    assert response.status_code == 302
    query = parse_qs(urlsplit(response["Location"]).query)
    assert query == {"tag": ["smoke"], "sort": ["-id"], "page": ["1"]}


def test_htmx_puts_the_lists_url_without_empty_fields_in_the_address_bar(
    signed_in: Client, work: Suite
) -> None:
    form = {"q": "", "status": "approved", "warnings": "", "markers": "", "tag": "", "sort": ""}

    response = signed_in.get(page_url(work), form, HTTP_HX_REQUEST="true")

    assert response["HX-Push-Url"] == f"{page_url(work)}?status=approved"
