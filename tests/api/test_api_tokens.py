"""API tokens: hashed at rest, created on the API tokens page or by `create_api_token`, shown
once, revoked from the page; each person sees and revokes only their own."""

from __future__ import annotations

import hashlib
import io
import re

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from evals_app.models import ApiToken
from tests.api.api_calls import ApiClient
from tests.factories import api_token, user

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r"agentv_[A-Za-z0-9_-]{43}")


def all_database_text() -> str:
    """Every value of every row of the token table, as text."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM evals_app_apitoken")
        rows = cursor.fetchall()
    return repr(rows)


def test_a_token_is_stored_as_its_sha256_and_a_short_prefix() -> None:
    account = user("alice", password=None)

    token = api_token(account, "nightly")

    row = ApiToken.objects.get()
    assert TOKEN.fullmatch(token)
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert row.prefix == token[:15]
    assert token not in all_database_text()
    assert token[15:] not in all_database_text()


def test_two_tokens_are_never_the_same() -> None:
    account = user("alice", password=None)

    assert api_token(account) != api_token(account)


# The page


@pytest.fixture
def alice() -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user("alice", password=None))
    return client


def csrf(client: Client) -> str:
    page = client.get(reverse("api_tokens")).content.decode()
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def test_the_page_is_linked_from_every_page_header(alice: Client) -> None:
    page = alice.get(reverse("workspace_list")).content.decode()

    assert f'href="{reverse("api_tokens")}"' in page


def create(client: Client, name: str) -> str:
    """Create a token named `name` on the page and follow the redirect: the page's text."""
    response = client.post(
        reverse("api_tokens"), {"name": name, "csrfmiddlewaretoken": csrf(client)}, follow=True
    )
    assert response.redirect_chain == [(reverse("api_tokens"), 302)]
    return response.content.decode()


def test_creating_a_token_shows_it_once_and_it_works(alice: Client) -> None:
    page = create(alice, "nightly CI")

    token = TOKEN.search(page).group()
    assert ApiClient(token).get("/workspaces").status_code == 200
    listed = alice.get(reverse("api_tokens")).content.decode()
    assert "nightly CI" in listed and token[:15] in listed
    assert token not in listed


def test_the_page_that_shows_a_new_token_is_never_cached(alice: Client) -> None:
    alice.post(reverse("api_tokens"), {"name": "laptop", "csrfmiddlewaretoken": csrf(alice)})

    response = alice.get(reverse("api_tokens"))

    assert TOKEN.search(response.content.decode())
    assert "no-store" in response["Cache-Control"]


def test_reloading_after_creating_a_token_creates_no_second_one(alice: Client) -> None:
    create(alice, "laptop")

    reloaded = alice.get(reverse("api_tokens"))

    assert reloaded.status_code == 200
    assert ApiToken.objects.count() == 1
    assert not TOKEN.search(reloaded.content.decode())


def test_the_new_token_has_a_copy_button(alice: Client) -> None:
    page = create(alice, "laptop")

    assert 'data-copy="#new-token"' in page
    assert "js/copy.js" in page


@pytest.mark.parametrize(
    ("name", "words"),
    [("", "Give the token a name"), ("  ", "Give the token a name"), ("x" * 101, "at most")],
)
def test_a_token_needs_a_name_that_fits(alice: Client, name: str, words: str) -> None:
    response = alice.post(reverse("api_tokens"), {"name": name, "csrfmiddlewaretoken": csrf(alice)})

    assert response.status_code == 422
    assert words in response.content.decode()
    assert not ApiToken.objects.exists()


def test_creating_and_revoking_need_the_csrf_token(alice: Client) -> None:
    alice.post(reverse("api_tokens"), {"name": "laptop", "csrfmiddlewaretoken": csrf(alice)})
    row = ApiToken.objects.get()

    assert alice.post(reverse("api_tokens"), {"name": "x"}).status_code == 403
    assert alice.post(reverse("api_token_revoke", args=[row.pk])).status_code == 403
    assert list(ApiToken.objects.all()) == [row]


def test_revoking_a_token_stops_it_at_once(alice: Client) -> None:
    token = TOKEN.search(create(alice, "laptop")).group()
    row = ApiToken.objects.get()

    revoked = alice.post(
        reverse("api_token_revoke", args=[row.pk]), {"csrfmiddlewaretoken": csrf(alice)}
    )

    assert revoked.status_code == 302
    assert not ApiToken.objects.exists()
    assert ApiClient(token).get("/workspaces").status_code == 401
    assert "Revoked the token laptop" in alice.get(reverse("api_tokens")).content.decode()


def test_nobody_sees_or_revokes_someone_elses_tokens(alice: Client) -> None:
    token = api_token(user("bob", password=None), "bob's CI")
    row = ApiToken.objects.get()

    page = alice.get(reverse("api_tokens")).content.decode()
    response = alice.post(
        reverse("api_token_revoke", args=[row.pk]), {"csrfmiddlewaretoken": csrf(alice)}
    )

    assert "bob&#x27;s CI" not in page and row.prefix not in page
    assert response.status_code == 404
    assert ApiClient(token).get("/workspaces").status_code == 200


def test_the_page_needs_a_login() -> None:
    response = Client().get(reverse("api_tokens"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# The command


def test_the_command_prints_a_working_token_once() -> None:
    user("alice", password=None)
    out, err = io.StringIO(), io.StringIO()

    call_command("create_api_token", "alice", "--name", "deploy", stdout=out, stderr=err)

    token = out.getvalue().strip()
    assert TOKEN.fullmatch(token)
    assert ApiToken.objects.get().name == "deploy"
    assert "Created the API token 'deploy' for alice." in err.getvalue()
    assert ApiClient(token).get("/workspaces").status_code == 200


def test_the_command_refuses_an_unknown_account() -> None:
    with pytest.raises(CommandError, match="no account named 'nobody'"):
        call_command("create_api_token", "nobody", stdout=io.StringIO())
    assert not ApiToken.objects.exists()
