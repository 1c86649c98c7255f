"""The Activity page records every change, with who made it, newest first, and a link to what
changed while it still exists: cases, suites, files, guideline patterns, members, the workspace."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from evals_app.models import Case, Suite, Workspace
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(db: None) -> Workspace:
    workspace = factories.workspace("Team evals")
    suite = factories.suite(workspace, "evals/review.yaml")
    factories.case(suite, "first")
    factories.case(suite, "second")
    factories.workspace_file(workspace, "notes.md")
    return workspace


@pytest.fixture
def owner(client: Client, team: Workspace) -> User:
    account = factories.member(team, "owner", "olivia")
    client.force_login(account)
    return account


DELETED_CASES = "/w/{slug}/deleted/"


def feed(client: Client, workspace: Workspace) -> list[str]:
    """The Activity page's entries as text, newest first, without the time."""
    page = client.get(reverse("activity", args=[workspace.slug])).content.decode()
    entries = re.findall(r"<li>(.*?)</li>", page, re.S)
    texts = [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", entry)).split()) for entry in entries]
    return [re.sub(r"^\d{4}-\d\d-\d\d \d\d:\d\d ", "", text) for text in texts]


def links(client: Client, workspace: Workspace) -> list[str]:
    page = client.get(reverse("activity", args=[workspace.slug])).content.decode()
    activity = page.split('<ol class="activity">', 1)[1]
    return re.findall(r'<a href="([^"]+)">', activity)


def suite_of(workspace: Workspace) -> Suite:
    return workspace.suites.get(path="evals/review.yaml")


def case_url(case: Case, action: str = "") -> str:
    suite = case.suite
    return reverse("case_editor", args=[suite.workspace.slug, suite.pk, case.pk]) + action


def test_adding_a_case_is_recorded_as_its_creation(
    client: Client, team: Workspace, owner: User
) -> None:
    suite = suite_of(team)
    client.post(reverse("case_create", args=[team.slug, suite.pk]), {"case_id": "third"})

    assert feed(client, team) == ["olivia created case third in evals/review.yaml created"]
    assert links(client, team) == [case_url(suite.cases.get(case_id="third"))]


def test_duplicating_and_pasting_are_recorded_as_creations(
    client: Client, team: Workspace, owner: User
) -> None:
    suite = suite_of(team)
    client.post(case_url(suite.cases.get(case_id="first"), "duplicate/"))
    yaml = "id: pasted\noutcome: o\ninput_messages: [{role: user, content: Hi}]\n"
    client.post(reverse("case_paste", args=[team.slug, suite.pk]), {"yaml": yaml})

    assert feed(client, team) == [
        "olivia created case pasted in evals/review.yaml created from pasted YAML",
        "olivia created case first-copy in evals/review.yaml duplicated from first",
    ]


def test_deleting_a_case_is_recorded_linking_the_deleted_cases_not_the_case(
    client: Client, team: Workspace, owner: User
) -> None:
    client.post(case_url(suite_of(team).cases.get(case_id="first"), "delete/"))

    assert feed(client, team) == [
        "olivia deleted case first from evals/review.yaml Restorable from Deleted cases"
    ]
    assert links(client, team) == [DELETED_CASES.format(slug=team.slug)]


def test_moving_a_case_is_recorded_with_its_new_place(
    client: Client, team: Workspace, owner: User
) -> None:
    second = suite_of(team).cases.get(case_id="second")
    client.post(case_url(second, "move/"), {"direction": "up"})

    assert feed(client, team) == ["olivia moved case second in evals/review.yaml up, to place 1"]
    assert links(client, team) == [case_url(second)]


def bulk(client: Client, suite: Suite, action: str, *case_ids: str, **fields: str) -> None:
    """Post the suite page's bulk form: `action` on the cases `case_ids`, confirmed."""
    pks = [str(suite.cases.get(case_id=case_id).pk) for case_id in case_ids]
    client.post(
        reverse("case_bulk", args=[suite.workspace.slug, suite.pk]),
        {"action": action, "cases": pks, "confirmed": "yes", **fields},
    )


def test_deleting_selected_cases_is_one_record_naming_them(
    client: Client, team: Workspace, owner: User
) -> None:
    suite = suite_of(team)
    factories.case(suite, "third")
    bulk(client, suite, "delete", "first", "third")
    bulk(client, suite, "delete", "second")

    assert feed(client, team) == [
        "olivia deleted case second from evals/review.yaml Restorable from Deleted cases",
        "olivia deleted cases first, third 2 cases, from evals/review.yaml"
        " Restorable from Deleted cases",
    ]
    assert links(client, team) == [DELETED_CASES.format(slug=team.slug)] * 2


def test_moving_selected_cases_is_one_record_linking_where_they_went(
    client: Client, team: Workspace, owner: User
) -> None:
    suite = suite_of(team)
    other = factories.suite(team, "evals/other.yaml")
    factories.case(other, "second")  # a clash: `second` stays, and is not named
    factories.case(suite, "third")
    bulk(client, suite, "move", "first", "second", "third", target=str(other.pk))
    bulk(client, other, "move", "third", target=str(suite.pk))

    assert feed(client, team) == [
        "olivia moved case third in evals/review.yaml from evals/other.yaml to evals/review.yaml",
        "olivia moved cases first, third 2 cases, from evals/review.yaml to evals/other.yaml",
    ]
    third = suite.cases.get(case_id="third")
    assert links(client, team) == [
        case_url(third),
        reverse("suite_detail", args=[team.slug, other.pk]),
    ]


def test_a_selection_too_long_to_name_says_how_many_more(
    client: Client, team: Workspace, owner: User
) -> None:
    suite = suite_of(team)
    long_ids = [f"{index:03d}-" + "x" * 195 for index in range(6)]
    for case_id in long_ids:
        factories.case(suite, case_id)

    bulk(client, suite, "delete", *long_ids)

    assert feed(client, team) == [
        f"olivia deleted cases {', '.join(long_ids[:4])} and 2 more 6 cases, from evals/review.yaml"
        " Restorable from Deleted cases"
    ]


def test_moves_and_deletions_that_did_nothing_are_not_recorded(
    client: Client, team: Workspace, owner: User
) -> None:
    suite = suite_of(team)
    other = factories.suite(team, "evals/other.yaml")
    factories.case(other, "first")
    bulk(client, suite, "move", "first", target=str(other.pk))

    assert feed(client, team) == []


def test_adding_renaming_and_deleting_a_suite_are_recorded(
    client: Client, team: Workspace, owner: User
) -> None:
    client.post(reverse("suite_create", args=[team.slug]), {"path": "evals/new.yaml"})
    suite = team.suites.get(path="evals/new.yaml")
    client.post(reverse("suite_rename", args=[team.slug, suite.pk]), {"path": "evals/b.yaml"})
    assert links(client, team) == [reverse("suite_detail", args=[team.slug, suite.pk])] * 2
    client.post(reverse("suite_delete", args=[team.slug, suite.pk]))

    assert feed(client, team) == [
        "olivia deleted suite evals/b.yaml with 0 cases",
        "olivia renamed suite evals/b.yaml from evals/new.yaml",
        "olivia created suite evals/new.yaml",
    ]
    assert links(client, team) == []


def test_files_added_edited_uploaded_and_deleted_are_recorded(
    client: Client, team: Workspace, owner: User
) -> None:
    client.post(reverse("file_create", args=[team.slug]), {"path": "a.md", "text": "A"})
    file = team.files.get(path="a.md")
    client.post(reverse("file_edit", args=[team.slug, file.pk]), {"path": "b.md", "text": "B"})
    upload = SimpleUploadedFile("c.md", b"C")
    client.post(reverse("file_upload", args=[team.slug]), {"file": upload})
    client.post(reverse("file_delete", args=[team.slug, team.files.get(path="notes.md").pk]))

    assert feed(client, team) == [
        "olivia deleted file notes.md",
        "olivia added file c.md uploaded",
        "olivia edited file b.md renamed from a.md",
        "olivia added file a.md",
    ]
    c = team.files.get(path="c.md")
    assert links(client, team) == [
        reverse("file_edit", args=[team.slug, c.pk]),
        reverse("file_edit", args=[team.slug, file.pk]),
        reverse("file_edit", args=[team.slug, file.pk]),
    ]


def test_changing_the_guideline_patterns_is_recorded_with_the_new_ones(
    client: Client, team: Workspace, owner: User
) -> None:
    url = reverse("workspace_patterns", args=[team.slug])
    client.post(url, {"patterns": "**/*.instructions.md\nprompts/*.md"})
    client.post(url, {"patterns": "**/*.instructions.md\nprompts/*.md"})  # unchanged

    assert feed(client, team) == [
        "olivia changed the guideline patterns .agentv/config.yaml"
        " **/*.instructions.md, prompts/*.md"
    ]


def test_members_added_changed_and_removed_are_recorded(
    client: Client, team: Workspace, owner: User
) -> None:
    factories.user("bob", password=None)
    client.post(reverse("member_add", args=[team.slug]), {"username": "bob", "role": "viewer"})
    client.post(reverse("member_add", args=[team.slug]), {"username": "bob", "role": "editor"})
    membership = team.memberships.get(user__username="bob")
    client.post(reverse("member_remove", args=[team.slug, membership.pk]))

    assert feed(client, team) == [
        "olivia removed member bob was Editor",
        "olivia changed the role of bob from Viewer to Editor",
        "olivia added member bob as Viewer",
    ]


def test_creating_and_renaming_the_workspace_are_recorded(client: Client, db: None) -> None:
    client.force_login(factories.user("olivia", password=None))
    client.post(reverse("workspace_create"), {"name": "Fresh"})
    workspace = Workspace.objects.get(name="Fresh")
    client.post(reverse("workspace_rename", args=[workspace.slug]), {"name": "Renamed"})
    workspace.refresh_from_db()

    assert feed(client, workspace) == [
        "olivia renamed the workspace Renamed from Fresh",
        "olivia created the workspace Fresh",
    ]


def test_records_and_case_edits_are_listed_together_newest_first(
    client: Client, team: Workspace, owner: User
) -> None:
    first = suite_of(team).cases.get(case_id="first")
    client.post(reverse("file_create", args=[team.slug]), {"path": "a.md", "text": "A"})
    factories.revision(first, owner, "edited")
    factories.comment_thread(first, owner, "Looks fine.")
    client.post(reverse("file_create", args=[team.slug]), {"path": "b.md", "text": "B"})

    assert feed(client, team) == [
        "olivia added file b.md",
        "olivia commented on the case of first in evals/review.yaml Looks fine.",
        "olivia changed first in evals/review.yaml edited",
        "olivia added file a.md",
    ]


def test_a_deleted_account_shows_as_someone(client: Client, team: Workspace, owner: User) -> None:
    bob = factories.member(team, "editor", "bob")
    bob_client = Client()
    bob_client.force_login(bob)
    bob_client.post(reverse("file_create", args=[team.slug]), {"path": "a.md", "text": "A"})
    bob.delete()

    assert feed(client, team) == ["someone added file a.md"]


def test_the_activity_page_takes_a_constant_number_of_queries(
    client: Client, team: Workspace, owner: User, django_assert_max_num_queries: object
) -> None:
    for number in range(5):
        client.post(reverse("file_create", args=[team.slug]), {"path": f"{number}.md"})
        client.post(reverse("suite_create", args=[team.slug]), {"path": f"e/{number}.yaml"})
    second = suite_of(team).cases.get(case_id="second")
    client.post(case_url(second, "move/"), {"direction": "up"})

    with django_assert_max_num_queries(9):  # type: ignore[operator]
        response = client.get(reverse("activity", args=[team.slug]))

    assert response.status_code == 200


def test_what_people_typed_is_shown_inert(client: Client, team: Workspace, owner: User) -> None:
    payload = "<img src=x onerror=alert(1)>.md"
    client.post(reverse("file_create", args=[team.slug]), {"path": payload, "text": "x"})

    page = client.get(reverse("activity", args=[team.slug])).content.decode()

    assert "&lt;img src=x onerror=alert(1)&gt;.md" in page
    assert "<img" not in page
