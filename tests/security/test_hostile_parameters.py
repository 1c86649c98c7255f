"""No URL of the app answers 5xx, whatever its parameters: every route of the URL conf, with
real objects and with absurd ids in its path, is sent hostile values (huge, negative and
non-ASCII numbers, deep JSON, very long strings, NUL bytes, bad editor actions) in every
parameter the app reads, as GET and POST, plain and htmx, by the workspace's owner."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from evals_app.json_limits import MAX_JSON_DEPTH
from evals_app.models import (
    Case,
    Job,
    Notification,
    ReviewCriterion,
    Run,
    Suggestion,
    Workspace,
)
from evals_app.services.workspaces.invitations import invitation_token
from tests import factories
from tests.html_forms import form_fields

pytestmark = pytest.mark.django_db

DEEP_JSON = "[" * 5000 + "]" * 5000
HOSTILE_VALUES = [
    "9" * 30,  # overflows a 64-bit column
    "9" * 5000,  # more digits than int() converts
    "-1",
    "0",
    "abc",
    "²",  # str.isdigit() says yes, int() says no
    "١٢",  # Arabic-Indic digits: int() reads them
    "1e3",
    DEEP_JSON,
    '{"extra": ' * 100 + "{}" + "}" * 100,
    "x" * 100_000,
    "a\x00b",
    "overwrite:abc",
    "overwrite:" + "9" * 30,
    "add-turn:input:nobody",
    "move-block:input:9999999999999999999999:0:up",
    "delete-turn:input:-1",
    "",
]
# Every request parameter a view reads (grep request.GET, request.POST and the forms).
PARAMETERS = [
    "page",
    "q",
    "from",
    "to",
    "approved",
    "path",
    "text",
    "replace",
    "patterns",
    "case_id",
    "direction",
    "step",
    "note",
    "anchor",
    "username",
    "role",
    "yaml",
    "action",
    "version",
    "preview_mode",
    "candidate_answer",
    "input-count",
    "expected-count",
    "evaluator-count",
    # The JSON API's query parameters.
    "suite",
    "id",
    "status",
    "mode",
    "toon",
]


@dataclass
class World:
    """One of everything, owned by the signed-in user."""

    client: Client
    values: dict[str, Any]  # path parameters by name
    case: Case


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if str(entry.pattern).startswith("admin/"):
                continue  # the admin is for superusers, and Django's own
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern))
        else:
            yield prefix + str(entry.pattern), entry


ROUTES = {
    pattern.name or route: (route, pattern)
    for route, pattern in _routes(get_resolver().url_patterns)
}


@pytest.fixture
def world() -> World:
    space = factories.workspace("Team")
    owner = factories.member(space, "owner", "owner")
    other = factories.member(space, "editor")
    suite = factories.suite(space)
    case = factories.case(suite, "first", ("user", "Hello"), ("assistant", "Hi"))
    factories.case(suite, "second")
    factories.revision(case, owner, outcome="Changed.")
    factories.revision(case, owner, outcome="Changed again.")
    thread = factories.comment_thread(case, owner, turn=0)
    file = factories.workspace_file(space, "prompts/a.instructions.md")
    # A 5xx is a response to count, not an exception that stops the sweep at the first one.
    # The token opens the JSON API; the pages go by the session.
    token = factories.api_token(owner)
    client = Client(raise_request_exception=False, headers={"Authorization": f"Bearer {token}"})
    client.force_login(owner)
    values = {
        "slug": space.slug,
        "suite_pk": suite.pk,
        "case_pk": case.pk,
        "file_pk": file.pk,
        "membership_pk": space.memberships.get(user=other).pk,
        "thread_pk": thread.pk,
        "number": 1,
        "token_pk": owner.api_tokens.get().pk,
        "token": invitation_token(space, "invited@example.com", "editor"),
        "job_pk": Job.objects.create(kind=Job.Kind.EXPORT, workspace=space, requested_by=owner).pk,
    }
    run_job = Job.objects.create(kind=Job.Kind.RUN, requested_by=owner)
    run = Run.objects.create(workspace=space, suite=suite, job=run_job, target="mock")
    values.update(run_pk=run.pk, run_id=run.pk, job_id=values["job_pk"])
    criterion = ReviewCriterion.objects.create(
        workspace=space, position=0, name="Clear", kind=ReviewCriterion.Kind.PASS_FAIL
    )
    notice = Notification.objects.create(
        recipient=owner,
        kind=Notification.Kind.MENTION,
        workspace=space,
        case=case,
        text="Mentioned.",
        link="/",
    )
    suggestion = Suggestion.objects.create(
        case=case, author=other, base=case.document, base_version=1, document=case.document
    )
    values.update(
        criterion_pk=criterion.pk,
        notification_pk=notice.pk,
        suggestion_pk=suggestion.pk,
        pk=suggestion.pk,  # the API's suggestions/{pk}
        format_name="promptfoo",  # a suite's Export as…
    )
    return World(client, values, case)


def url_of(route: str, values: dict[str, Any]) -> str:
    url = route
    for name, value in values.items():
        for converter in ("slug", "id", "str"):
            url = url.replace(f"<{converter}:{name}>", str(value))
        url = url.replace(f"<{name}>", str(value))  # the API's paths (ninja)
    assert "<" not in url, url
    return "/" + url


def absurd_paths(route: str, world: World) -> list[str]:
    """The route with each numeric id in turn replaced by absurd numbers."""
    return [
        url_of(route, {**world.values, name: absurd})
        for name in world.values
        if f"<id:{name}>" in route
        for absurd in ("9" * 30, "9" * 18, "0")
    ]


def send(client: Client, method: str, url: str, data: Any, **extra: Any) -> int:
    response = getattr(client, method)(url, data, **extra)
    if response.streaming:  # the export: reading it to the end closes its temporary file
        b"".join(response.streaming_content)
    return int(response.status_code)


@pytest.mark.parametrize("name", sorted(ROUTES))
def test_no_url_answers_5xx_to_hostile_parameters(world: World, name: str) -> None:
    route, _ = ROUTES[name]
    url = url_of(route, world.values)
    failures = []
    for method in ("get", "post"):
        for value in HOSTILE_VALUES:
            for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):
                status = send(world.client, method, url, dict.fromkeys(PARAMETERS, value), **htmx)
                if status >= 500:
                    failures.append((method, value[:40], bool(htmx), status))
        for absurd in absurd_paths(route, world):
            if (status := send(world.client, method, absurd, {})) >= 500:
                failures.append((method, absurd, False, status))

    assert failures == []


def editor_form(client: Client, case: Case) -> dict[str, str]:
    url = f"/w/{case.suite.workspace.slug}/suites/{case.suite.pk}/cases/{case.pk}/"
    html = client.get(url).content.decode()
    return form_fields(html, lambda form_id: form_id == "case-form")


@pytest.mark.parametrize("target", ["", "preview/"])
def test_no_editor_field_answers_5xx_to_a_hostile_value(world: World, target: str) -> None:
    """The editor reads its form field by field and stops at the first bad one: each field is
    made hostile in turn, the others left as the page sent them."""
    form = editor_form(world.client, world.case)
    assert "input-0-meta" in form  # the hidden fields of JSON are there to be attacked
    url = f"/w/{world.values['slug']}/suites/{world.values['suite_pk']}/cases/"
    url += f"{world.case.pk}/{target}"
    failures = []
    for field in [*form, "action"]:
        for value in HOSTILE_VALUES:
            status = send(world.client, "post", url, {**form, field: value}, HTTP_HX_REQUEST="true")
            if status >= 500:
                failures.append((field, value[:40], status))

    assert failures == []


def test_deep_json_in_a_hidden_field_answers_400_with_a_message(world: World) -> None:
    form = editor_form(world.client, world.case)
    url = f"/w/{world.values['slug']}/suites/{world.values['suite_pk']}/cases/{world.case.pk}/"

    for target in ("", "preview/"):
        response = world.client.post(url + target, {**form, "input-0-meta": DEEP_JSON})

        assert response.status_code == 400
        assert f"nested deeper than the limit of {MAX_JSON_DEPTH} levels" in (
            response.content.decode()
        )


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(DEEP_JSON, id="deep array"),
        pytest.param('{"a": ' * 5000 + '""' + "}" * 5000, id="deep object"),
        pytest.param(json.dumps({"input-0-meta": DEEP_JSON}), id="deep hidden field"),
    ],
)
def test_deep_json_in_the_preview_body_answers_400_with_a_message(world: World, body: str) -> None:
    url = f"/w/{world.values['slug']}/suites/{world.values['suite_pk']}/cases/{world.case.pk}/"
    form = editor_form(world.client, world.case)
    if body.startswith('{"input-0-meta"'):
        body = json.dumps({**form, **json.loads(body)})

    response = world.client.post(
        url + "preview/", body, content_type="application/json", HTTP_HX_REQUEST="true"
    )

    assert response.status_code == 400
    assert "nested deeper than the limit" in response.content.decode()


def test_json_as_deep_as_the_limit_is_accepted_in_a_hidden_field(world: World) -> None:
    form = editor_form(world.client, world.case)
    url = f"/w/{world.values['slug']}/suites/{world.values['suite_pk']}/cases/{world.case.pk}/"
    # {"extra": {"x": [[...]]}, "key_order": ["role", "content", "x"]}: the limit, no deeper.
    value: Any = []
    for _ in range(MAX_JSON_DEPTH - 3):
        value = [value]
    meta = json.dumps({"extra": {"x": value}, "key_order": ["role", "content", "x"]})

    response = world.client.post(url + "preview/", {**form, "input-0-meta": meta})

    assert response.status_code == 200


def test_bad_overwrite_versions_answer_400(world: World) -> None:
    form = editor_form(world.client, world.case)
    url = f"/w/{world.values['slug']}/suites/{world.values['suite_pk']}/cases/{world.case.pk}/"

    for action in ("overwrite:abc", "overwrite:-1", "overwrite:²", "overwrite:" + "9" * 30):
        response = world.client.post(url, {**form, "action": action})

        assert response.status_code == 400, action
    assert Workspace.objects.count() == 1
