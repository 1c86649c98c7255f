"""The workspace's token settings: the encoding the editor counts in and the context window
(docs/user-guide.md, "Token counts")."""

from __future__ import annotations

import pytest
from django.test import Client

from evals_app.models import Workspace
from tests.factories import case, suite, workspace

pytestmark = pytest.mark.django_db


def settings_url(made: Workspace) -> str:
    return f"/w/{made.slug}/token-counts/"


def test_an_owner_sets_the_encoding_and_the_window(signed_in: Client) -> None:
    made = workspace()

    response = signed_in.post(
        settings_url(made), {"token_encoding": "cl100k_base", "context_window": "8192"}
    )

    assert response.status_code == 302
    made.refresh_from_db()
    assert (made.token_encoding, made.context_window) == ("cl100k_base", 8192)


@pytest.mark.parametrize(
    ("encoding", "window", "error"),
    [
        ("p50k_base", "8192", "Select a valid choice"),
        ("o200k_base", "0", "greater than or equal to 1"),
        ("o200k_base", "many", "Enter a whole number"),
    ],
)
def test_a_bad_value_is_refused_where_it_was_typed(
    signed_in: Client, encoding: str, window: str, error: str
) -> None:
    made = workspace()

    response = signed_in.post(
        settings_url(made), {"token_encoding": encoding, "context_window": window}
    )

    assert response.status_code == 422
    assert error in response.content.decode()
    made.refresh_from_db()
    assert (made.token_encoding, made.context_window) == ("o200k_base", 128_000)


def test_the_editor_counts_in_the_workspaces_encoding(signed_in: Client) -> None:
    made = workspace(token_encoding="cl100k_base", context_window=100)
    stored = case(suite(made), "hindi", ("user", "नमस्ते दुनिया, आप कैसे हैं?"))

    page = signed_in.get(f"/w/{made.slug}/suites/{stored.suite.pk}/cases/{stored.pk}/")

    html = page.content.decode()
    assert 'id="tokens-input-0">27 tokens</p>' in html  # 10 in o200k_base
    assert "(cl100k_base)" in html
    window = html[html.index('id="context-window"') :]
    assert "context window of 100 tokens" in window[:300], window[:300]
