"""Script-injection payloads in every user-editable field render as inert, literal text on every
page, in every htmx fragment and in the preview.

Each page's HTML is parsed for anything that could run (inline scripts, event-handler
attributes, `javascript:` URLs, injected elements): there must be none, and the payloads must
show escaped. The pages come from the URL configuration, so new pages are covered too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from evals_app.models import Case, Workspace
from tests.editor.test_case_editor_views import form_of
from tests.security.hostile_workspace import (
    ATTACHMENT,
    ATTRIBUTE,
    CASE_ID,
    ESCAPED,
    JAVASCRIPT_URL,
    SCRIPT,
    TEXTAREA,
    active_content,
    hostile_workspace,
)

pytestmark = pytest.mark.django_db

# Query strings echoed back by some pages (search, a new file's path, the login redirect).
QUERIES = {
    "suite_detail": {"q": SCRIPT},
    "file_create": {"path": ATTRIBUTE},
    "login": {"next": ATTRIBUTE},
    "case_compare": {"a": SCRIPT, "b": ATTRIBUTE},
}


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return hostile_workspace(tmp_path / "hostile")


@pytest.fixture
def case(workspace: Workspace) -> Case:
    return Case.objects.select_related("suite__workspace").get(case_id=CASE_ID)


def arguments_of(case: Case) -> dict[str, Any]:
    workspace = case.suite.workspace
    return {
        "slug": workspace.slug,
        "suite_pk": case.suite.pk,
        "case_pk": case.pk,
        "file_pk": workspace.files.get(path=ATTACHMENT).pk,
    }


def named_urls(patterns: list[Any] | None = None, namespace: str = "") -> Iterator[tuple[str, Any]]:
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver) and entry.namespace != "admin":
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from named_urls(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", entry


def page_urls(case: Case) -> Iterator[tuple[str, str, dict[str, str]]]:
    known = arguments_of(case)
    for name, pattern in named_urls():
        parameters = getattr(pattern.pattern, "converters", {})
        if not set(parameters) <= set(known):
            continue  # a page about an object of another kind (a revision, a thread): no payload
        url = reverse(name, kwargs={key: known[key] for key in parameters})
        yield name, url, QUERIES.get(name, {})


def assert_inert(html: str, where: str) -> None:
    assert not active_content(html), f"{where} has active content: {active_content(html)}"
    for payload in (SCRIPT, ATTRIBUTE, TEXTAREA):
        assert payload not in html, f"{where} shows {payload!r} unescaped"


def test_every_page_and_fragment_shows_the_payloads_inert(signed_in: Client, case: Case) -> None:
    shown = []
    for name, url, query in page_urls(case):
        for htmx in (False, True):
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            response = signed_in.get(url, query, **headers)
            if response.streaming:  # a download: reading it to the end closes its file
                b"".join(response.streaming_content)  # type: ignore[arg-type]
            assert response.status_code < 500, f"{name} failed"
            if not response.get("Content-Type", "").startswith("text/html"):
                continue
            # Error pages too (a 422 echoes what it refuses).
            assert_inert(response.content.decode(), f"{name} {'(htmx)' if htmx else ''}")
            if response.status_code == 200:
                shown.append(name)

    assert {"workspace_detail", "suite_detail", "case_editor", "case_yaml", "file_edit"} <= set(
        shown
    )


@pytest.mark.parametrize(
    ("page", "payloads"),
    [
        ("workspace_list", [ATTRIBUTE]),
        ("workspace_detail", [ATTRIBUTE]),  # name, suite path, file names, patterns
        ("suite_detail", [SCRIPT, ATTRIBUTE]),  # description, case id, warnings
        ("case_editor", [SCRIPT, ATTRIBUTE, TEXTAREA]),  # every field and the preview
        ("case_yaml", [SCRIPT, ATTRIBUTE, TEXTAREA]),
        ("file_edit", [SCRIPT, TEXTAREA]),  # the attachment's path and text
    ],
)
def test_pages_show_the_payloads_as_literal_text(
    signed_in: Client, case: Case, page: str, payloads: list[str]
) -> None:
    known = arguments_of(case)
    arguments = {
        "workspace_list": {},
        "workspace_detail": {"slug": known["slug"]},
        "suite_detail": {"slug": known["slug"], "suite_pk": known["suite_pk"]},
        "file_edit": {"slug": known["slug"], "file_pk": known["file_pk"]},
    }.get(page, {key: known[key] for key in ("slug", "suite_pk", "case_pk")})

    html = signed_in.get(reverse(page, kwargs=arguments)).content.decode()

    for payload in payloads:
        assert ESCAPED[payload] in html, f"{payload!r} is not shown escaped on {page}"


def editor_url(case: Case, suffix: str = "") -> str:
    return reverse("case_editor", args=[case.suite.workspace.slug, case.suite.pk, case.pk]) + suffix


def test_the_preview_of_typed_payloads_is_inert(signed_in: Client, case: Case) -> None:
    form = form_of(signed_in.get(editor_url(case)).content.decode())
    form |= {"input-1-block-0-value": f"Typed {SCRIPT} {ATTRIBUTE} {TEXTAREA}"}
    form |= {"candidate_answer": f"Candidate {SCRIPT}", "preview_mode": "agent"}

    response = signed_in.post(editor_url(case, "preview/"), form, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 200
    assert_inert(html, "the preview")
    assert ESCAPED[TEXTAREA] in html
    assert "Candidate " + ESCAPED[SCRIPT] in html


@pytest.mark.parametrize("htmx", [False, True])
def test_a_structural_edit_re_renders_payloads_inert(
    signed_in: Client, case: Case, htmx: bool
) -> None:
    form = form_of(signed_in.get(editor_url(case)).content.decode())
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

    response = signed_in.post(
        editor_url(case), {**form, "action": "add-turn:input:user"}, **headers
    )

    assert response.status_code == 200
    assert_inert(response.content.decode(), "the re-rendered turns")


def test_a_save_conflict_shows_both_versions_inert(signed_in: Client, case: Case) -> None:
    form = form_of(signed_in.get(editor_url(case)).content.decode())
    theirs = {**case.document, "outcome": TEXTAREA}
    Case.objects.filter(pk=case.pk).update(version=case.version + 1, document=theirs)
    form |= {"outcome": f"Mine {SCRIPT}", "action": "save"}

    response = signed_in.post(editor_url(case), form, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 409
    assert_inert(html, "the conflict")
    assert "Mine " + ESCAPED[SCRIPT] in html


@pytest.mark.parametrize(
    "snippet",
    [
        f"id: x\noutcome: ok\ninput_messages:\n  - role: '{SCRIPT}'\n    content: hi\n",
        f"{TEXTAREA}: [\n",
        f"id: '{ATTRIBUTE}'\noutcome: ok\ninput_messages:\n  - {{role: robot, content: hi}}\n",
    ],
    ids=["in-the-error-message", "in-the-echoed-yaml", "in-a-field"],
)
def test_refused_pasted_yaml_is_echoed_inert(signed_in: Client, case: Case, snippet: str) -> None:
    url = reverse("case_paste", args=[case.suite.workspace.slug, case.suite.pk])

    response = signed_in.post(url, {"yaml": snippet})

    html = response.content.decode()
    assert response.status_code == 422
    assert_inert(html, "the paste page")
    assert "&lt;/textarea&gt;" in html or "&lt;script&gt;" in html or "&quot;&gt;&lt;img" in html


def test_refused_forms_echo_what_was_typed_inert(signed_in: Client, workspace: Workspace) -> None:
    posts = [
        ("file_create", {"path": f"{ATTACHMENT}", "text": TEXTAREA}),  # the path is taken
        ("suite_create", {"path": f"{SCRIPT}.txt"}),  # not .yaml
        ("workspace_patterns", {"patterns": f"[z-a]{SCRIPT}"}),  # not a valid glob
    ]
    for name, data in posts:
        response = signed_in.post(reverse(name, args=[workspace.slug]), data)
        assert response.status_code == 422, name
        assert_inert(response.content.decode(), name)


def test_no_page_links_to_a_javascript_url(signed_in: Client, case: Case) -> None:
    html = signed_in.get(editor_url(case)).content.decode()

    assert JAVASCRIPT_URL in html  # shown as text…
    assert not active_content(html)  # …never as a link target
