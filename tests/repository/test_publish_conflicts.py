"""Publish is safe: a case in conflict is never overwritten, the message says what the commit
does, and a branch other than the followed one is compared with the base (docs/sync.md,
"Publishing")."""

from __future__ import annotations

import copy
import itertools
import tempfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from evals_app.models import Case, Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.cases.list_changes import delete_case
from evals_app.services.repository.publishing import ConflictsOpen, publish_workspace
from evals_app.services.repository.sync import sync_repository
from evals_app.services.review import workflow as review_workflow
from tests import factories
from tests.git_repositories import Repository, linked_workspace, repository, suite_yaml

pytestmark = pytest.mark.django_db

edit = factories.edit_input

PATH = "evals/suite.eval.yaml"
ORIGINAL = suite_yaml(("one", "First?"), ("two", "Second?"), ("three", "Third?"))


@pytest.fixture
def repo(tmp_path: Path) -> Repository:
    made = repository(tmp_path / "repo")
    made.commit({PATH: ORIGINAL}, "evals")
    return made


@pytest.fixture
def workspace(repo: Repository) -> Workspace:
    return linked_workspace(repo)


def approve(case: Case) -> None:
    reviewer = factories.user(f"rev-{case.case_id}", None)
    review_workflow.move(case, reviewer, review_workflow.Action.SUBMITTED)
    review_workflow.move(case, reviewer, review_workflow.Action.APPROVED)


def conflict_on_two(repo: Repository, workspace: Workspace) -> str:
    """Case `two` changed in the app and, differently, by a teammate; synced: in conflict.
    Returns the teammate's commit (the workspace's base from then on)."""
    edit("two", "Second, in the app?")
    theirs = repo.commit({PATH: ORIGINAL.replace("Second?", "Second, by a teammate?")}, "teammate")
    sync_repository(workspace)
    assert Case.objects.get(case_id="two").in_conflict
    return theirs


def publish(workspace: Workspace, branch: str, **options: bool) -> object:
    return publish_workspace(Workspace.objects.get(pk=workspace.pk), branch, **options)


def test_publish_is_refused_while_a_case_it_would_write_is_in_conflict(
    repo: Repository, workspace: Workspace
) -> None:
    conflict_on_two(repo, workspace)
    edit("one", "First, better?")

    with pytest.raises(ConflictsOpen, match=f"1 case in conflict .*: {PATH} two") as refused:
        publish(workspace, "review")

    assert [(c.suite_path, c.case_id) for c in refused.value.conflicts] == [(PATH, "two")]
    assert "review" not in repo.git("branch", "--list")
    assert Case.objects.get(case_id="one").base_document["input"] == "First?"


def test_skipping_conflicts_publishes_the_other_cases_and_keeps_the_repositorys_version(
    repo: Repository, workspace: Workspace
) -> None:
    theirs = conflict_on_two(repo, workspace)
    edit("one", "First, better?")

    result = publish_workspace(
        Workspace.objects.get(pk=workspace.pk), "review", skip_conflicts=True
    )

    assert result.commit is not None
    assert repo.git("diff", "--stat", theirs, result.commit).count("|") == 1
    text = repo.show(result.commit, PATH)
    assert "First, better?" in text
    assert "Second, by a teammate?" in text
    assert "Second, in the app?" not in text
    assert [(c.suite_path, c.case_id) for c in result.held_back] == [(PATH, "two")]
    message = repo.git("log", "-1", "--format=%B", result.commit)
    assert f"Held back, in conflict with the repository (its version is kept):\n- {PATH} two" in (
        message
    )


def test_a_held_back_case_stays_in_conflict(repo: Repository, workspace: Workspace) -> None:
    conflict_on_two(repo, workspace)
    edit("one", "First, better?")
    publish(workspace, "review", skip_conflicts=True)

    _, report = sync_repository(Workspace.objects.get(pk=workspace.pk), dry_run=True)

    case = Case.objects.get(case_id="two")
    assert case.document["input"] == "Second, in the app?"
    assert case.theirs_document["input"] == "Second, by a teammate?"
    assert [(o.suite_path, o.case_id) for o in report.conflicts] == [(PATH, "two")]


def test_a_case_the_repository_removed_is_held_back_as_removed(
    repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Second, in the app?")
    repo.commit({PATH: suite_yaml(("one", "First?"), ("three", "Third?"))}, "teammate")
    sync_repository(workspace)
    edit("one", "First, better?")

    result = publish_workspace(
        Workspace.objects.get(pk=workspace.pk), "review", skip_conflicts=True
    )

    assert result.commit is not None
    text = repo.show(result.commit, PATH)
    assert "id: two" not in text
    assert "First, better?" in text
    assert result.deleted == []


def test_approved_only_is_not_refused_for_a_conflict_it_does_not_publish(
    repo: Repository, workspace: Workspace
) -> None:
    conflict_on_two(repo, workspace)
    approve(edit("one", "First, approved?"))

    result = publish_workspace(Workspace.objects.get(pk=workspace.pk), "review", approved_only=True)

    assert result.commit is not None
    text = repo.show(result.commit, PATH)
    assert "First, approved?" in text
    assert "Second, by a teammate?" in text  # the base commit's version, not the old base


def test_an_approved_case_in_conflict_refuses_an_approved_only_publish(
    repo: Repository, workspace: Workspace
) -> None:
    conflict_on_two(repo, workspace)
    approve(Case.objects.get(case_id="two"))

    with pytest.raises(ConflictsOpen, match=f"{PATH} two"):
        publish(workspace, "review", approved_only=True)


def test_the_message_lists_cases_changed_added_and_deleted_by_suite(
    repo: Repository, workspace: Workspace
) -> None:
    other = "evals/other.eval.yaml"
    repo.commit({other: suite_yaml(("solo", "Alone?"))}, "another suite")
    sync_repository(workspace)
    edit("two", "Second, better?")
    delete_case(Case.objects.get(case_id="three"), None)
    suite = Case.objects.get(case_id="one").suite
    document = copy.deepcopy(Case.objects.get(case_id="one").document)
    document["id"] = "four"
    Case.objects.create(suite=suite, position=10, case_id="four", document=document)
    delete_case(Case.objects.get(case_id="solo"), None)

    result = publish_workspace(Workspace.objects.get(pk=workspace.pk), "review")

    assert result.commit is not None
    message = repo.git("log", "-1", "--format=%B", result.commit)
    assert message.split("\n\n", 1)[1].rstrip("\n") == (
        f"{other}:\n- deleted solo\n\n"
        f"{PATH}:\n- changed two (not approved)\n- added four (not approved)\n- deleted three"
    )


def test_a_branch_behind_the_base_is_moved_forward_not_told_nothing_to_publish(
    repo: Repository, workspace: Workspace
) -> None:
    behind = repo.head("main")
    edit("two", "Second, better?")
    published = publish_workspace(Workspace.objects.get(pk=workspace.pk), "review")
    assert repo.head("main") == behind  # the workspace now follows `review`

    result = publish_workspace(Workspace.objects.get(pk=workspace.pk), "main")

    assert result.commit == published.commit
    assert repo.head("main") == published.commit
    assert "Nothing to publish" not in " ".join(result.lines())
    assert result.lines()[0].startswith("main lacked the workspace's base")


def test_a_commit_on_a_branch_behind_the_base_says_what_it_compared_with(
    repo: Repository, workspace: Workspace
) -> None:
    edit("two", "Second, better?")
    first = publish_workspace(Workspace.objects.get(pk=workspace.pk), "review")
    assert first.commit is not None
    edit("one", "First, better?")

    result = publish_workspace(Workspace.objects.get(pk=workspace.pk), "main")

    assert result.commit is not None
    assert repo.git("rev-parse", f"{result.commit}^").strip() == first.commit
    assert result.lines() == [
        f"Published 1 changed case as {result.commit[:12]} on main, compared with "
        f"{first.commit[:12]} (the workspace's base, on review).",
        "main was behind the base: it now holds the base's commits too.",
    ]


def test_nothing_to_publish_names_what_it_compared_with(
    repo: Repository, workspace: Workspace
) -> None:
    result = publish_workspace(Workspace.objects.get(pk=workspace.pk), "review")

    assert result.commit is None
    assert result.lines() == [
        f"Nothing to publish: compared with {repo.head()[:12]} (the workspace's base, on main), "
        "nothing differs."
    ]


def test_the_command_refuses_a_conflict_and_skips_it_when_told(
    repo: Repository, workspace: Workspace
) -> None:
    conflict_on_two(repo, workspace)
    edit("one", "First, better?")

    with pytest.raises(CommandError, match=f"in conflict with the repository: {PATH} two"):
        call_command("publish_evals", "--workspace", "team", "--branch", "review")
    out, err = StringIO(), StringIO()
    call_command(
        "publish_evals",
        "--workspace",
        "team",
        "--branch",
        "review",
        "--skip-conflicts",
        stdout=out,
        stderr=err,
    )

    assert out.getvalue().strip() == repo.head("review")
    assert f"Held back, in conflict with the repository (its version kept): {PATH} two." in (
        err.getvalue()
    )


NAMES = itertools.count()
SIDES = ("untouched", "here", "there", "both")  # where a case was changed since the base


@settings(max_examples=15, deadline=None)
@given(sides=st.lists(st.sampled_from(SIDES), min_size=1, max_size=5))
def test_publish_never_writes_the_apps_side_of_a_conflict(sides: list[str]) -> None:
    ids = [f"c{index}" for index in range(len(sides))]
    with tempfile.TemporaryDirectory() as folder:
        repo = repository(Path(folder))
        repo.commit({PATH: suite_yaml(*((case_id, f"{case_id}?") for case_id in ids))})
        linked = linked_workspace(repo, f"property-{next(NAMES)}")
        cases = {case.case_id: case for case in Case.objects.filter(suite__workspace=linked)}
        for case_id, side in zip(ids, sides, strict=True):
            if side in ("here", "both"):
                case = cases[case_id]
                document = {**case.document, "input": f"{case_id} here?"}
                save_case(case, document, case.version, None)
        changed_there = [side in ("there", "both") for side in sides]
        there = [f"{i} there?" if t else f"{i}?" for i, t in zip(ids, changed_there, strict=True)]
        repo.commit({PATH: suite_yaml(*zip(ids, there, strict=True))})
        sync_repository(linked)
        in_conflict = [(PATH, i) for i, side in zip(ids, sides, strict=True) if side == "both"]

        refused: list[tuple[str, str]] = []
        try:
            publish_workspace(Workspace.objects.get(pk=linked.pk), "other")
        except ConflictsOpen as error:
            refused = [(c.suite_path, c.case_id) for c in error.conflicts]
        result = publish_workspace(
            Workspace.objects.get(pk=linked.pk), "review", skip_conflicts=True
        )

        assert refused == in_conflict
        assert [(c.suite_path, c.case_id) for c in result.held_back] == in_conflict
        text = repo.show(result.commit or result.base, PATH)
        for case_id, side in zip(ids, sides, strict=True):
            written = {"untouched": "?", "here": " here?", "there": " there?", "both": " there?"}
            assert f"input: {case_id}{written[side]}\n" in text
        still = Case.objects.filter(suite__workspace=linked, theirs_document__isnull=False)
        assert sorted(still.values_list("case_id", flat=True)) == [i for _, i in in_conflict]
