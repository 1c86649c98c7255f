"""Every URL that accepts a POST refuses one without the CSRF token, htmx requests included;
the JSON API, which a session does not open, refuses it whatever it carries.

The URLs are read from the URL configuration, so a view added later is covered without
touching this test; only the admin (Django's own, tested there) is left out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from evals_app.models import Case
from tests import factories

pytestmark = pytest.mark.django_db

# Views every release has; the walk over the URL configuration must find at least these.
KNOWN_POST_VIEWS = {
    "login",
    "logout",
    "workspace_patterns",
    "suite_create",
    "file_create",
    "file_upload",
    "file_edit",
    "file_delete",
    "case_create",
    "case_duplicate",
    "case_delete",
    "case_move",
    "case_editor",
    "case_preview",
    "case_paste",
    "workspace_create",
    "workspace_import",
    "workspace_rename",
    "workspace_delete",
    "suite_rename",
    "suite_delete",
    "suite_settings",
    "suite_profile",
    "suite_prompts",
}


def url_names(patterns: list[Any] | None = None, namespace: str = "") -> Iterator[tuple[str, Any]]:
    """(name, pattern) of every named URL, namespaced like `reverse` wants them."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from url_names(entry.url_patterns, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}{entry.name}", entry


@pytest.fixture
def case() -> Case:
    workspace = factories.workspace()
    factories.workspace_file(workspace, "notes.md")
    return factories.case(factories.suite(workspace), "case-1")


def url_of(name: str, pattern: Any, known: dict[str, Any]) -> str:
    """The URL `name` with the `known` parameters; others get 1 (the CSRF check comes first, so
    an object that does not exist still shows whether the token is asked for)."""
    parameters = getattr(pattern.pattern, "converters", {})
    return reverse(name, kwargs={key: known.get(key, 1) for key in parameters})


@pytest.fixture
def strict_client() -> tuple[Client, User]:
    """A client that enforces CSRF like a browser, logged in as a superuser (who may do
    anything, so only CSRF can refuse a request)."""
    account = factories.admin()
    client = Client(enforce_csrf_checks=True)
    client.force_login(account)
    return client, account


def token_from_page(client: Client) -> str:
    """The token a page gives htmx (`hx-headers` on <body>) and its forms."""
    html = client.get(reverse("workspace_list")).content.decode()
    headers = re.search(r"<body[^>]* hx-headers='([^']*)'", html)
    assert headers, "the page has no hx-headers on <body>"
    return json.loads(headers.group(1))["X-CSRFToken"]


def test_every_post_without_the_csrf_token_is_refused_and_with_it_accepted(
    strict_client: tuple[Client, User], case: Case
) -> None:
    client, account = strict_client
    token = token_from_page(client)
    # Read before the loop: posting with the token really deletes the file and the case.
    known = {
        "slug": case.suite.workspace.slug,
        "suite_pk": case.suite.pk,
        "case_pk": case.pk,
        "file_pk": case.suite.workspace.files.get().pk,
    }
    posting: set[str] = set()
    wrong: list[str] = []
    for name, pattern in url_names():
        url = url_of(name, pattern, known)
        client.force_login(account)  # logging out (one of the URLs) must not hide the rest
        with_token = client.post(url, {"csrfmiddlewaretoken": token})
        if with_token.status_code == 405:
            continue  # GET only
        posting.add(name)
        if name.startswith("api-v1:"):
            # The API takes no session, only a token in a header a forged form cannot send:
            # with the session alone (and even its CSRF token) it answers 401 (404 off its
            # endpoints).
            statuses = {with_token.status_code, client.post(url).status_code}
            refused = statuses in ({401}, {404})
            wrong += [] if refused else [f"{name} ({url}): the session opened the API {statuses}"]
            continue
        client.force_login(account)
        over_htmx = client.post(url, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
        checks = {
            "form without token": client.post(url).status_code == 403,
            "htmx without token": client.post(url, HTTP_HX_REQUEST="true").status_code == 403,
            "form with token": with_token.status_code not in (403, 500),
            "htmx with token": over_htmx.status_code not in (403, 500),
        }
        wrong += [f"{name} ({url}): {check}" for check, ok in checks.items() if not ok]

    assert not wrong, "CSRF not handled as expected:\n" + "\n".join(wrong)
    assert posting >= KNOWN_POST_VIEWS, KNOWN_POST_VIEWS - posting


def test_a_token_from_another_session_is_refused(
    strict_client: tuple[Client, User], case: Case
) -> None:
    client, _ = strict_client
    stranger = Client(enforce_csrf_checks=True)
    stranger.force_login(factories.user("mallory", password=None))
    foreign_token = token_from_page(stranger)
    url = reverse("case_create", args=[case.suite.workspace.slug, case.suite.pk])

    response = client.post(url, {"case_id": "forged"}, HTTP_X_CSRFTOKEN=foreign_token)

    assert response.status_code == 403
    assert not Case.objects.filter(case_id="forged").exists()
