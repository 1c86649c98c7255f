"""Who may do what: every view of the app and every API endpoint × every role, allowed or
denied.

Outsiders get 404 everywhere (as if the workspace did not exist); members whose role does not
allow an action get 403; everyone else gets the view's normal answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse

from evals_app.models import (
    Case,
    CommentThread,
    Membership,
    ReviewCriterion,
    Workspace,
    WorkspaceFile,
)
from evals_app.permissions import Capability
from evals_app.services.imports.folders import import_workspace
from evals_app.services.review.comments import start_thread
from evals_app.services.review.criteria import add_criterion
from evals_app.services.review.revisions import record_revision
from tests.factories import admin, api_token, member, user, write_files

pytestmark = pytest.mark.django_db

ROLES = ["owner", "editor", "reviewer", "viewer"]
ALLOWED = {
    Capability.VIEW: {"owner", "editor", "reviewer", "viewer"},
    Capability.COMMENT: {"owner", "editor", "reviewer"},
    Capability.REVIEW: {"owner", "reviewer"},
    Capability.EDIT: {"owner", "editor"},
    Capability.MANAGE: {"owner"},
}


@dataclass
class World:
    """One workspace with a suite, a case (two revisions, a thread), a file and a member."""

    workspace: Workspace
    case: Case
    file: WorkspaceFile
    thread: CommentThread
    membership: Membership
    criterion: ReviewCriterion

    def kwargs(self, name: str) -> dict[str, Any]:
        """The URL arguments `name` takes, filled with this world's objects."""
        values = {
            "slug": self.workspace.slug,
            "suite_pk": self.case.suite_id,
            "case_pk": self.case.pk,
            "file_pk": self.file.pk,
            "thread_pk": self.thread.pk,
            "membership_pk": self.membership.pk,
            "criterion_pk": self.criterion.pk,
            "number": 1,
            "format_name": "promptfoo",
        }
        pattern = next(p for p in _patterns() if p.name == name)
        return {key: values[key] for key in pattern.pattern.regex.groupindex}


@pytest.fixture
def world(tmp_path: Any) -> World:
    root = write_files(
        tmp_path / "ws",
        {
            "notes.md": "Notes.",
            "evals/suite.yaml": {
                "$schema": "agentv-eval-v2",
                "evalcases": [
                    {
                        "id": "first",
                        "outcome": "o",
                        "input_messages": [
                            {"role": "system", "content": "Be brief."},
                            {"role": "user", "content": [{"type": "file", "value": "notes.md"}]},
                        ],
                    },
                    {
                        "id": "second",
                        "outcome": "o",
                        "input_messages": [{"role": "user", "content": "Hi"}],
                    },
                ],
            },
        },
    )
    workspace = import_workspace(root, "Team").workspace
    case = Case.objects.get(case_id="first")
    record_revision(case, None, "as imported", case.document)
    record_revision(case, None, "edited", case.document)
    someone = user("someone", password=None)
    membership = Membership.objects.create(workspace=workspace, user=someone, role="owner")
    thread = start_thread(case, someone, "Why this turn?", "input", 0)
    criterion = add_criterion(workspace, "Clear", ReviewCriterion.Kind.SCALE)
    return World(workspace, case, workspace.files.get(), thread, membership, criterion)


def editor_form(world: World) -> dict[str, str]:
    return {
        "id": "first",
        "outcome": "o",
        "version": str(world.case.version),
        "input-count": "1",
        "input-0-role": "user",
        "input-0-block-count": "1",
        "input-0-block-0-value": "Hello",
    }


def selected(world: World, action: str) -> dict[str, str]:
    """The suite page's bulk form: `action` on the world's case."""
    return {"action": action, "cases": str(world.case.pk)}


@dataclass(frozen=True)
class Endpoint:
    """A request to make and the capability it needs."""

    name: str
    method: str
    needs: Capability
    data: Callable[[World], dict[str, Any]] = lambda world: {}
    query: str = ""


ENDPOINTS = [
    Endpoint("workspace_detail", "get", Capability.VIEW),
    Endpoint("activity", "get", Capability.VIEW),
    Endpoint("deleted_list", "get", Capability.VIEW),
    Endpoint("deleted_restore", "post", Capability.EDIT, lambda w: {"deleted": "0"}),
    Endpoint("workspace_search", "get", Capability.VIEW),
    Endpoint("workspace_export", "post", Capability.VIEW),
    Endpoint("suite_detail", "get", Capability.VIEW),
    Endpoint("suite_export", "get", Capability.VIEW),
    Endpoint("suite_export_file", "get", Capability.VIEW),
    Endpoint("file_edit", "get", Capability.VIEW),
    Endpoint("case_editor", "get", Capability.VIEW),
    Endpoint("case_yaml", "get", Capability.VIEW),
    Endpoint("case_history", "get", Capability.VIEW),
    Endpoint("case_compare", "get", Capability.VIEW, query="?from=1&to=2"),
    Endpoint("case_preview", "post", Capability.VIEW, editor_form),
    Endpoint(
        "case_editor",
        "post",
        Capability.EDIT,
        lambda w: {**editor_form(w), "action": "add-turn:input:user"},
    ),
    Endpoint(
        "case_editor", "post", Capability.EDIT, lambda w: {**editor_form(w), "action": "save"}
    ),
    Endpoint("case_paste", "get", Capability.EDIT),
    Endpoint(
        "case_paste",
        "post",
        Capability.EDIT,
        lambda w: {"yaml": "id: pasted\noutcome: o\ninput_messages: [{role: user, content: x}]"},
    ),
    Endpoint("case_restore", "post", Capability.EDIT),
    Endpoint("suite_create", "post", Capability.EDIT, lambda w: {"path": "evals/new.yaml"}),
    Endpoint("tests_import", "get", Capability.EDIT),
    Endpoint("tests_import", "post", Capability.EDIT, lambda w: {"action": "preview"}),
    Endpoint("case_create", "post", Capability.EDIT, lambda w: {"case_id": "third"}),
    Endpoint("case_duplicate", "post", Capability.EDIT),
    Endpoint("case_fork", "post", Capability.EDIT, lambda w: {"turn": "1"}),
    Endpoint("case_take_prefix", "post", Capability.EDIT, lambda w: {"version": "1"}),
    Endpoint("case_move", "post", Capability.EDIT, lambda w: {"direction": "down"}),
    Endpoint("case_delete", "post", Capability.EDIT),
    Endpoint("case_bulk", "post", Capability.EDIT, lambda w: selected(w, "submit")),
    Endpoint("case_bulk", "post", Capability.REVIEW, lambda w: selected(w, "approve")),
    Endpoint("case_bulk", "post", Capability.EDIT, lambda w: selected(w, "delete")),
    Endpoint(
        "case_bulk", "post", Capability.EDIT, lambda w: {**selected(w, "move"), "target": "0"}
    ),
    Endpoint("file_create", "get", Capability.EDIT),
    Endpoint("file_create", "post", Capability.EDIT, lambda w: {"path": "new.md", "text": "x"}),
    Endpoint("file_upload", "post", Capability.EDIT, lambda w: {"path": "up.md"}),
    Endpoint("file_edit", "post", Capability.EDIT, lambda w: {"path": "notes.md", "text": "New."}),
    Endpoint("file_delete", "post", Capability.EDIT),
    Endpoint("case_review", "post", Capability.EDIT, lambda w: {"step": "submit"}),
    Endpoint("case_review", "post", Capability.REVIEW, lambda w: {"step": "request_changes"}),
    Endpoint("case_review", "post", Capability.REVIEW, lambda w: {"step": "approve"}),
    Endpoint(
        "thread_create",
        "post",
        Capability.COMMENT,
        lambda w: {"text": "A comment.", "anchor": "input-1"},
    ),
    Endpoint("thread_reply", "post", Capability.COMMENT, lambda w: {"text": "A reply."}),
    Endpoint("thread_reply", "post", Capability.COMMENT, lambda w: {"step": "resolve"}),
    Endpoint(
        "workspace_patterns",
        "post",
        Capability.MANAGE,
        lambda w: {"patterns": "**/*.instructions.md"},
    ),
    Endpoint(
        "workspace_checkout_folder",
        "post",
        Capability.MANAGE,
        lambda w: {"checkout_folder": "/srv/repo"},
    ),
    Endpoint(
        "workspace_token_counts",
        "post",
        Capability.MANAGE,
        lambda w: {"token_encoding": "cl100k_base", "context_window": "8000"},
    ),
    Endpoint(
        "member_add", "post", Capability.MANAGE, lambda w: {"username": "someone", "role": "owner"}
    ),
    Endpoint("member_remove", "post", Capability.MANAGE),
    Endpoint("review_rules", "post", Capability.MANAGE, lambda w: {"required_approvals": "2"}),
    Endpoint(
        "criterion_add", "post", Capability.MANAGE, lambda w: {"name": "Fair", "kind": "pass_fail"}
    ),
    Endpoint("criterion_change", "post", Capability.MANAGE, lambda w: {"name": "Clearer"}),
    Endpoint("suite_rename", "get", Capability.EDIT),
    Endpoint("suite_rename", "post", Capability.EDIT, lambda w: {"path": "evals/renamed.yaml"}),
    Endpoint("suite_delete", "get", Capability.EDIT),
    Endpoint("suite_delete", "post", Capability.EDIT),
    Endpoint("suite_settings", "get", Capability.EDIT),
    Endpoint("suite_settings", "post", Capability.EDIT, lambda w: {"fields_yaml": "name: x"}),
    Endpoint("suite_profile", "post", Capability.EDIT, lambda w: {"profile": "agentv-2026"}),
    Endpoint(
        "suite_prompts",
        "post",
        Capability.EDIT,
        lambda w: {
            "prompt-count": "1",
            "prompt-0-kind": "template",
            "prompt-0-text": "{{ input }}",
        },
    ),
    Endpoint("suite_upgrade", "get", Capability.EDIT),
    Endpoint("suite_upgrade", "post", Capability.EDIT),
    Endpoint("workspace_settings", "get", Capability.MANAGE),
    Endpoint("workspace_rename", "post", Capability.MANAGE, lambda w: {"name": "Renamed"}),
    Endpoint("workspace_delete", "post", Capability.MANAGE, lambda w: {"confirm_name": "Team"}),
    Endpoint("repository_check", "post", Capability.MANAGE),
    Endpoint("repository_changes", "get", Capability.MANAGE),
    Endpoint("repository_sync", "post", Capability.MANAGE),
    Endpoint("repository_publish", "post", Capability.MANAGE, lambda w: {"branch": "review"}),
    Endpoint("repository_link", "post", Capability.MANAGE, lambda w: {"url": "", "branch": "main"}),
    Endpoint("repository_link_confirm", "post", Capability.MANAGE, lambda w: {"preview": "1"}),
    Endpoint("repository_relink", "post", Capability.MANAGE, lambda w: {"branch": "main"}),
    Endpoint("case_resolve", "post", Capability.EDIT, lambda w: {"resolution": "mine"}),
]


IDS = [f"{e.method} {e.name} ({e.needs})" for e in ENDPOINTS]


def request(client: Client, world: World, endpoint: Endpoint) -> int:
    url = reverse(endpoint.name, kwargs=world.kwargs(endpoint.name)) + endpoint.query
    send = client.get if endpoint.method == "get" else client.post
    response = send(url, endpoint.data(world))
    response.close()  # a streamed download holds its file open until closed
    return response.status_code


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=IDS)
def test_member_may_do_what_their_role_allows(world: World, endpoint: Endpoint, role: str) -> None:
    client = Client()
    client.force_login(member(world.workspace, role))

    status = request(client, world, endpoint)

    if role in ALLOWED[endpoint.needs]:
        assert status not in (403, 404), f"{role} was refused ({status})"
    else:
        assert status == 403


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=IDS)
def test_outsider_finds_nothing(world: World, endpoint: Endpoint) -> None:
    client = Client()
    client.force_login(user("outsider", password=None))

    assert request(client, world, endpoint) == 404


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=IDS)
def test_superuser_may_do_anything(world: World, endpoint: Endpoint) -> None:
    client = Client()
    client.force_login(admin())

    assert request(client, world, endpoint) not in (403, 404)


def test_every_view_of_the_app_is_in_the_matrix() -> None:
    # Not about one workspace: any signed-in user may list, create and import workspaces and
    # manage their own API tokens; any token lists its own workspaces; the API's schema and
    # docs describe it, with no data; an invitation link is for whoever holds it, signed in or
    # not (tests/workspaces/test_invitations.py).
    anywhere = {"workspace_list", "review_queue", "workspace_create", "workspace_import"}
    # A reviewer's own queue (its cases are in their workspaces only: tests/review/).
    anywhere |= {"my_queue", "queue_next"}
    # One's own notifications (tests/review/test_notifications.py).
    anywhere |= {"inbox", "inbox_count", "inbox_read", "inbox_preferences", "notification_open"}
    anywhere |= {"api_tokens", "api_token_revoke", "list_workspaces", "queue", "profile"}
    anywhere |= {"openapi-json", "openapi-view", "api-root", "invitation"}
    # A job is its requester's alone: anyone else gets a 404 (tests/jobs/).
    anywhere |= {"running_jobs", "job_detail", "job_cancel", "job_download"}
    anywhere |= {"queue_import", "list_jobs", "read_job", "cancel"}
    # Runs and suggestions have their rights tested role by role in their rooms
    # (tests/runs/, tests/api/test_api_runs.py, tests/review/test_suggestions.py,
    # tests/api/test_api_suggestions.py).
    anywhere |= {"case_run", "suite_run", "run_detail", "run_cancel", "run_case", "read_run"}
    anywhere |= {"suggest_change", "case_suggestion", "case_suggestions", "apply", "dismiss"}
    covered = {endpoint.name for endpoint in ENDPOINTS + API_ENDPOINTS} | anywhere

    assert {pattern.name for pattern in _patterns()} <= covered


# The JSON API: the same capabilities as the pages, with a token instead of a session.


@dataclass(frozen=True)
class ApiEndpoint:
    """An API request (its URL pattern's name, the path after /api/v1) and what it needs."""

    name: str
    method: str
    path: str
    needs: Capability
    body: Callable[[World], dict[str, Any]] = lambda world: {}


def api_document(world: World) -> dict[str, Any]:
    return {"version": world.case.version, "document": {**world.case.document, "outcome": "x"}}


CASE_QUERY = "?suite=evals/suite.yaml&id=first"
API_ENDPOINTS = [
    ApiEndpoint("list_cases", "get", "/workspaces/team/cases", Capability.VIEW),
    ApiEndpoint(
        "case_reviews", "get", f"/workspaces/team/case/reviews{CASE_QUERY}", Capability.VIEW
    ),
    ApiEndpoint(
        "assign",
        "post",
        "/workspaces/team/assignments",
        Capability.MANAGE,
        lambda w: {"suite": "evals/suite.yaml", "cases": ["first"], "reviewers": ["someone"]},
    ),
    ApiEndpoint("read_case", "get", f"/workspaces/team/case{CASE_QUERY}", Capability.VIEW),
    ApiEndpoint(
        "formatted_case", "get", f"/workspaces/team/formatted{CASE_QUERY}", Capability.VIEW
    ),
    ApiEndpoint(
        "replace_case", "put", f"/workspaces/team/case{CASE_QUERY}", Capability.EDIT, api_document
    ),
    ApiEndpoint(
        "review_case",
        "post",
        f"/workspaces/team/case/review{CASE_QUERY}",
        Capability.EDIT,
        lambda w: {"action": "submit"},
    ),
    ApiEndpoint(
        "review_case",
        "post",
        f"/workspaces/team/case/review{CASE_QUERY}",
        Capability.REVIEW,
        lambda w: {"action": "approve"},
    ),
    ApiEndpoint(
        "review_case",
        "post",
        f"/workspaces/team/case/review{CASE_QUERY}",
        Capability.REVIEW,
        lambda w: {"action": "request_changes"},
    ),
    ApiEndpoint("list_suites", "get", "/workspaces/team/suites", Capability.VIEW),
    ApiEndpoint(
        "list_revisions", "get", f"/workspaces/team/case/revisions{CASE_QUERY}", Capability.VIEW
    ),
    ApiEndpoint(
        "list_review_steps",
        "get",
        f"/workspaces/team/case/review-steps{CASE_QUERY}",
        Capability.VIEW,
    ),
    ApiEndpoint("queue_export", "post", "/workspaces/team/jobs/export", Capability.VIEW),
    ApiEndpoint("queue_check", "post", "/workspaces/team/jobs/check", Capability.MANAGE),
    ApiEndpoint(
        "queue_sync",
        "post",
        "/workspaces/team/jobs/sync",
        Capability.MANAGE,
        lambda w: {"commit": "0" * 40},
    ),
    ApiEndpoint(
        "queue_publish",
        "post",
        "/workspaces/team/jobs/publish",
        Capability.MANAGE,
        lambda w: {"branch": "main"},
    ),
    ApiEndpoint(
        "queue_link",
        "post",
        "/workspaces/team/jobs/link",
        Capability.MANAGE,
        lambda w: {"url": ""},
    ),
    ApiEndpoint(
        "queue_link_confirmed",
        "post",
        "/workspaces/team/jobs/link/confirm",
        Capability.MANAGE,
        lambda w: {"preview": 1, "commit": ""},
    ),
    ApiEndpoint(
        "queue_upgrade",
        "post",
        "/workspaces/team/jobs/upgrade?suite=evals/suite.yaml",
        Capability.EDIT,
    ),
    # Without files: refused for the missing files (409) once the role is checked.
    ApiEndpoint("queue_tests_import", "post", "/workspaces/team/imports/tests", Capability.EDIT),
]
API_IDS = [f"{e.method} {e.name} ({e.needs})" for e in API_ENDPOINTS]


def api_request(account: Any, world: World, endpoint: ApiEndpoint) -> int:
    send = getattr(Client(), endpoint.method)
    response = send(
        f"/api/v1{endpoint.path}",
        data=json.dumps(endpoint.body(world)) if endpoint.method != "get" else None,
        content_type="application/json",
        headers={"Authorization": f"Bearer {api_token(account)}"},
    )
    assert response["Content-Type"] == "application/json; charset=utf-8"
    return response.status_code


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", API_ENDPOINTS, ids=API_IDS)
def test_api_lets_a_member_do_what_their_role_allows(
    world: World, endpoint: ApiEndpoint, role: str
) -> None:
    status = api_request(member(world.workspace, role), world, endpoint)

    if role in ALLOWED[endpoint.needs]:
        assert status not in (401, 403, 404), f"{role} was refused ({status})"
    else:
        assert status == 403


@pytest.mark.parametrize("endpoint", API_ENDPOINTS, ids=API_IDS)
def test_api_outsider_finds_nothing(world: World, endpoint: ApiEndpoint) -> None:
    assert api_request(user("outsider", password=None), world, endpoint) == 404


@pytest.mark.parametrize("endpoint", API_ENDPOINTS, ids=API_IDS)
def test_api_superuser_may_do_anything(world: World, endpoint: ApiEndpoint) -> None:
    assert api_request(admin(), world, endpoint) not in (401, 403, 404)


def test_workspace_list_shows_only_my_workspaces(world: World) -> None:
    client = Client()
    outsider = user("outsider", password=None)
    client.force_login(outsider)
    other = Workspace.objects.create(name="Mine", slug="mine")
    Membership.objects.create(workspace=other, user=outsider, role="viewer")

    html = client.get(reverse("workspace_list")).content.decode()

    assert "Mine" in html
    assert "Team" not in html


def test_viewer_sees_no_editing_controls(world: World) -> None:
    client = Client()
    client.force_login(member(world.workspace, "viewer"))

    editor = client.get(reverse("case_editor", kwargs=world.kwargs("case_editor"))).content
    suite = client.get(reverse("suite_detail", kwargs=world.kwargs("suite_detail"))).content

    assert b'id="save-button"' not in editor
    assert b"Add case" not in suite and b"Duplicate" not in suite


def _patterns() -> list[URLPattern]:
    resolver = get_resolver()
    found: list[URLPattern] = []
    for entry in resolver.url_patterns:
        if getattr(entry, "app_name", None) == "admin" or not hasattr(entry, "url_patterns"):
            continue
        found.extend(p for p in entry.url_patterns if isinstance(p, URLPattern) and p.name)
    return found
