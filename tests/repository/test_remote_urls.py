"""The URLs a repository is linked by, and the pull-request page of its host (docs/sync.md,
"Remotes")."""

from __future__ import annotations

import pytest

from evals_app.services.repository.git import Transport
from evals_app.services.repository.remote_urls import (
    RemoteURLError,
    compare_link,
    parse_remote_url,
)

ALLOWED = ["https", "ssh", "file"]


@pytest.mark.parametrize(
    ("url", "protocol", "host", "path"),
    [
        ("https://github.com/team/evals.git", "https", "github.com", "team/evals.git"),
        ("ssh://git@gitlab.com:2222/team/evals.git", "ssh", "gitlab.com", "team/evals.git"),
        ("git@github.com:team/evals.git", "ssh", "github.com", "team/evals.git"),
        ("file:///srv/git/evals.git", "file", "", "/srv/git/evals.git"),
    ],
)
def test_a_url_of_each_allowed_shape_is_accepted(
    url: str, protocol: str, host: str, path: str
) -> None:
    parsed = parse_remote_url(url, ALLOWED)

    assert (parsed.protocol, parsed.host, parsed.path) == (protocol, host, path)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("", "Give the repository's URL"),
        ("http://example.com/evals.git", "starts with https://"),
        ("ext::sh -c touch% /tmp/x", "no spaces"),
        ("ext::ssh", "starts with https://"),
        ("--upload-pack=touch", "cannot start with -"),
        ("https://user:secret@example.com/evals.git", "user name or password"),
        ("https://token@example.com/evals.git", "user name or password"),
        ("ssh://git:pw@example.com/evals.git", "password"),
        ("file://host/srv/evals.git", "absolute folder"),
        ("https://example.com/", "names no repository"),
        ("https://example.com/evals.git?x=1", "no .query or #fragment"),
        ("git://example.com/evals.git", "git:// URLs are not allowed"),
        ("/srv/git/evals.git", "starts with https://"),
        ("git@-evil.example:evals.git", "cannot start with -"),
    ],
)
def test_a_url_of_another_shape_is_refused_saying_why(url: str, message: str) -> None:
    with pytest.raises(RemoteURLError, match=message):
        parse_remote_url(url, ALLOWED)


@pytest.mark.parametrize(
    ("url", "link"),
    [
        (
            "https://github.com/team/evals.git",
            "https://github.com/team/evals/compare/main...agentv-web/x-2026?expand=1",
        ),
        (
            "git@github.com:team/evals.git",
            "https://github.com/team/evals/compare/main...agentv-web/x-2026?expand=1",
        ),
        (
            "https://gitlab.example.com/group/sub/evals.git",
            "https://gitlab.example.com/group/sub/evals/-/merge_requests/new?"
            "merge_request%5Bsource_branch%5D=agentv-web%2Fx-2026"
            "&merge_request%5Btarget_branch%5D=main",
        ),
        (
            "ssh://git@gitea.example.org/team/evals.git",
            "https://gitea.example.org/team/evals/compare/main...agentv-web/x-2026",
        ),
        (
            "https://codeberg.org/team/evals",
            "https://codeberg.org/team/evals/compare/main...agentv-web/x-2026",
        ),
        ("https://git.example.com/team/evals.git", None),
        ("file:///srv/git/evals.git", None),
    ],
)
def test_the_compare_link_is_the_hosts_pull_request_page(url: str, link: str | None) -> None:
    assert compare_link(parse_remote_url(url, ALLOWED), "main", "agentv-web/x-2026") == link


def test_every_secret_is_scrubbed_from_git_messages() -> None:
    transport = Transport(("https",), {}, ("tok-123", "eC1hY2Nlc3M="))

    shown = transport.scrubbed("fatal: auth tok-123 failed; header eC1hY2Nlc3M= refused")

    assert shown == "fatal: auth [credential] failed; header [credential] refused"
