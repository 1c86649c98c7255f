"""Every other page a user opens uses as many queries for a lot of data as for a little: no
page runs a query per workspace, suite, file, member, revision, comment or review step.

Each test measures a page on a small and on a larger data set, the second request of each (the
first may refresh stored summaries), as test_page_query_counts.py does for the suite page, the
editor and the preview.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, ReviewEvent, ReviewStatus, Workspace
from tests.factories import (
    case,
    comment_thread,
    member,
    review_event,
    revision,
    suite,
    user,
    workspace,
    workspace_file,
)
from tests.pages.test_page_query_counts import queries

pytestmark = pytest.mark.django_db

SMALL, LARGE = 1, 6
T = TypeVar("T")
Action = ReviewEvent.Action


def filled_workspace(name: str, size: int) -> Workspace:
    """A workspace with `size` suites of `size` cases each, `size` files (guidelines and
    attachments) and `size` members."""
    space = workspace(name)
    for index in range(size):
        stored = suite(space, f"evals/suite-{index}.yaml")
        for number in range(size):
            case(stored, f"case-{number}", status=list(ReviewStatus)[number % 4])
        kind = "instructions.md" if index % 2 else "txt"
        workspace_file(space, f"docs/file-{index}.{kind}")
        member(
            space, ["owner", "editor", "reviewer", "viewer"][index % 4], f"{name}-member-{index}"
        )
    return space


def people(prefix: str, size: int) -> list[User]:
    """`size` accounts, so that each comment, revision or review step has its own author."""
    return [user(f"{prefix}-{index}", password=None) for index in range(size)]


def first_case(space: Workspace) -> Case:
    """The first case of the workspace's first suite, its suite loaded."""
    cases = Case.objects.select_related("suite").filter(suite__workspace=space)
    return cases.order_by("suite__path", "position")[0]


def small_and_large(build: Callable[[str, int], T]) -> tuple[T, T]:
    """What `build(name, size)` makes for the small and for the larger data set."""
    return build("Small", SMALL), build("Large", LARGE)


def case_url(name: str, target: Case, **query: str) -> str:
    url = reverse(name, args=[target.suite.workspace.slug, target.suite_id, target.pk])
    return f"{url}?{urlencode(query)}" if query else url


def test_the_workspace_list_uses_as_many_queries_for_many_workspaces_as_for_one(
    signed_in: Client,
) -> None:
    url = reverse("workspace_list")
    filled_workspace("First", SMALL)
    counts = [queries(signed_in, "get", url)]
    for index in range(LARGE):
        filled_workspace(f"More {index}", LARGE)
    counts.append(queries(signed_in, "get", url))

    assert counts[0] == counts[1]


def test_a_workspace_page_uses_as_many_queries_for_many_suites_files_and_members(
    signed_in: Client,
) -> None:
    counts = [
        queries(signed_in, "get", reverse("workspace_detail", args=[space.slug]))
        for space in small_and_large(filled_workspace)
    ]

    assert counts[0] == counts[1]


def test_rejected_guideline_patterns_show_the_workspace_page_in_as_many_queries(
    signed_in: Client,
) -> None:
    counts = [
        queries(
            signed_in,
            "post",
            reverse("workspace_patterns", args=[space.slug]),
            status=422,
            data={"patterns": ""},
        )
        for space in small_and_large(filled_workspace)
    ]

    assert counts[0] == counts[1]


def test_saving_guideline_patterns_uses_as_many_queries_for_many_files_and_cases(
    signed_in: Client,
) -> None:
    counts = [
        queries(
            signed_in,
            "post",
            reverse("workspace_patterns", args=[space.slug]),
            status=302,
            data={"patterns": "**/*.txt\n**/*.instructions.md"},
        )
        for space in small_and_large(filled_workspace)
    ]

    assert counts[0] == counts[1]


def test_a_file_page_uses_as_many_queries_in_a_workspace_of_many_files(
    signed_in: Client,
) -> None:
    counts = []
    for space in small_and_large(filled_workspace):
        file = space.files.order_by("path").last()
        assert file is not None
        counts.append(queries(signed_in, "get", reverse("file_edit", args=[space.slug, file.pk])))

    assert counts[0] == counts[1]


def test_the_new_file_page_uses_as_many_queries_in_a_workspace_of_many_files(
    signed_in: Client,
) -> None:
    counts = [
        queries(signed_in, "get", reverse("file_create", args=[space.slug]))
        for space in small_and_large(filled_workspace)
    ]

    assert counts[0] == counts[1]


def in_review(space: Workspace, authors: list[User], approver: User) -> None:
    """Put every case of `space` in review, changed by `authors` since `approver` approved it."""
    for index, stored in enumerate(Case.objects.filter(suite__workspace=space)):
        review_event(stored, approver, Action.APPROVED)
        revision(stored, authors[index % len(authors)])
        review_event(stored, authors[index % len(authors)], Action.SUBMITTED)
    Case.objects.filter(suite__workspace=space).update(status=ReviewStatus.IN_REVIEW)


def test_the_review_queue_uses_as_many_queries_for_many_cases_in_many_workspaces(
    signed_in: Client,
) -> None:
    url = reverse("review_queue")
    in_review(filled_workspace("First", SMALL), people("first", SMALL), user("approver", None))
    counts = [queries(signed_in, "get", url)]
    for index in range(LARGE):
        space = filled_workspace(f"More {index}", LARGE)
        in_review(space, people(f"author-{index}", LARGE), user(f"approver-{index}", None))
    counts.append(queries(signed_in, "get", url))

    assert counts[0] == counts[1]


def active_workspace(name: str, size: int) -> Workspace:
    """A workspace where `size` people each changed, commented on and reviewed its cases."""
    space = filled_workspace(name, size)
    cases = list(Case.objects.filter(suite__workspace=space))
    for index, someone in enumerate(people(name, size)):
        changed = cases[index % len(cases)]
        revision(changed, someone, outcome=f"Changed by {someone.username}.")
        comment_thread(changed, someone, "Why?", (someone, "Because."))
        review_event(changed, someone, Action.SUBMITTED, note="Please look.")
    return space


def test_the_activity_page_uses_as_many_queries_for_many_changes_comments_and_reviews(
    signed_in: Client,
) -> None:
    counts = [
        queries(signed_in, "get", reverse("activity", args=[space.slug]))
        for space in small_and_large(active_workspace)
    ]

    assert counts[0] == counts[1]


def revised_case(name: str, size: int) -> Case:
    """A case of `size` input turns, each referring to a workspace file of its own, revised
    `size` times, each time by someone else."""
    space = workspace(name)
    paths = [f"docs/turn-{index}.txt" for index in range(size)]
    for path in paths:
        workspace_file(space, path, f"The text of {path}.")
    revised = case(suite(space), "revised", *[("user", f"Turn {index}") for index in range(size)])
    for number, someone in enumerate(people(name, size)):
        turns = [
            {
                "role": "user",
                "content": [
                    {"type": "text", "value": f"Turn {index}, version {number}"},
                    {"type": "file", "value": f"../{path}"},
                ],
            }
            for index, path in enumerate(paths)
        ]
        revision(revised, someone, f"edit {number}", input_messages=turns)
    return revised


def test_a_case_history_uses_as_many_queries_for_many_revisions_as_for_one(
    signed_in: Client,
) -> None:
    counts = [
        queries(signed_in, "get", case_url("case_history", revised))
        for revised in small_and_large(revised_case)
    ]

    assert counts[0] == counts[1]


def test_comparing_revisions_uses_as_many_queries_for_long_histories_and_conversations(
    signed_in: Client,
) -> None:
    counts = []
    for revised in (revised_case("Small", 2), revised_case("Large", LARGE)):
        newest = str(revised.revisions.count())
        url = case_url("case_compare", revised, **{"from": "1", "to": newest})
        counts.append(queries(signed_in, "get", url))

    assert counts[0] == counts[1]


def test_the_yaml_of_a_case_uses_as_many_queries_for_many_turns_as_for_one(
    signed_in: Client,
) -> None:
    counts = [
        queries(signed_in, "get", case_url("case_yaml", revised))
        for revised in small_and_large(revised_case)
    ]

    assert counts[0] == counts[1]


def test_the_paste_form_uses_as_many_queries_in_a_suite_of_many_cases(signed_in: Client) -> None:
    counts = []
    for space in small_and_large(filled_workspace):
        target = first_case(space)
        url = reverse("case_paste", args=[space.slug, target.suite_id])
        counts.append(queries(signed_in, "get", url))

    assert counts[0] == counts[1]


def test_the_suite_page_uses_as_many_queries_for_cases_with_many_threads_and_reviews(
    signed_in: Client,
) -> None:
    counts = []
    for space in small_and_large(active_workspace):
        listed = first_case(space)
        url = reverse("suite_detail", args=[space.slug, listed.suite_id])
        counts.append(queries(signed_in, "get", url))

    assert counts[0] == counts[1]


def discussed_case(name: str, size: int) -> Case:
    """A case of `size` turns, in review, between two other cases, with `size` threads of `size`
    comments (one on the whole case, the others on its turns, every other one resolved) and
    `size` revisions and review steps, each by someone else, since its approval."""
    space = workspace(name)
    stored = suite(space)
    case(stored, "before")
    turns = [("user" if index % 2 == 0 else "assistant", f"Turn {index}") for index in range(size)]
    discussed = case(stored, "discussed", *turns, status=ReviewStatus.IN_REVIEW)
    case(stored, "after")
    authors = people(name, size)
    review_event(discussed, user(f"{name}-approver", None), Action.APPROVED)
    for index, someone in enumerate(authors):
        revision(discussed, someone, outcome=f"Changed by {someone.username}.")
        review_event(discussed, someone, Action.SUBMITTED, note="Please look.")
        replies = [(other, f"Reply of {other.username}") for other in authors[1:]]
        comment_thread(
            discussed,
            someone,
            f"Thread of {someone.username}",
            *replies,
            turn=index if index else None,
            resolved_by=authors[-1] if index % 2 else None,
        )
    return discussed


def test_the_editor_uses_as_many_queries_for_many_threads_replies_and_review_steps(
    signed_in: Client,
) -> None:
    counts = [
        queries(signed_in, "get", case_url("case_editor", discussed))
        for discussed in small_and_large(discussed_case)
    ]

    assert counts[0] == counts[1]
