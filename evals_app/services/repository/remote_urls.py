"""The URLs a repository can be linked by, and the page where its host opens a pull request
(docs/sync.md, "Remotes")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

# `git@host:owner/repo.git`: scp's spelling of an SSH address (a user, a host, a path).
_SCP_LIKE = re.compile(r"^(?P<user>[A-Za-z0-9._-]+)@(?P<host>[A-Za-z0-9.-]+):(?P<path>[^/].*)$")
_HOST = re.compile(r"^[A-Za-z0-9.-]+$")
SCHEMES = {"https": "https", "ssh": "ssh", "file": "file", "git": "git"}


class RemoteURLError(Exception):
    """A URL the app does not link; the message says why."""


@dataclass(frozen=True)
class RemoteURL:
    """A checked URL: the transport git uses, the host ("" for a file), the path on it."""

    url: str
    protocol: str
    host: str
    path: str

    @property
    def local_path(self) -> Path:
        """The folder a `file://` URL names."""
        return Path(self.path)


def parse_remote_url(url: str, protocols: list[str]) -> RemoteURL:
    """`url` checked: `https://`, `ssh://`, `git@host:path` or `file://`, among the transports
    `protocols` allows, without a user's password and without anything git would read as an
    option or a command. Raises RemoteURLError."""
    if not url:
        raise RemoteURLError("Give the repository's URL.")
    if url.startswith("-"):
        raise RemoteURLError("A repository URL cannot start with -.")
    if any(ord(c) < 33 or c == "\x7f" for c in url):
        raise RemoteURLError("A repository URL has no spaces or control characters.")
    scp = _SCP_LIKE.match(url)
    if scp is not None and "://" not in url:
        if scp["host"].startswith("-") or scp["user"].startswith("-"):
            raise RemoteURLError("A host or user name cannot start with -.")
        parsed = RemoteURL(url, "ssh", scp["host"], scp["path"])
    else:
        parsed = _parse_with_scheme(url)
    if parsed.protocol not in protocols:
        allowed = ", ".join(f"{name}://" for name in protocols)
        raise RemoteURLError(
            f"{parsed.protocol}:// URLs are not allowed here (allowed: {allowed})."
        )
    return parsed


def _parse_with_scheme(url: str) -> RemoteURL:
    try:
        return _split_with_scheme(url)
    except ValueError as error:
        # urlsplit's own refusal: a bracketed host that is no IPv6 address, a port out of range.
        raise RemoteURLError(f"The URL cannot be read: {error}.") from None


def _split_with_scheme(url: str) -> RemoteURL:
    parts = urlsplit(url)
    protocol = SCHEMES.get(parts.scheme.lower())
    if protocol is None or "::" in url.split("/")[0]:
        raise RemoteURLError(
            "A repository URL starts with https://, ssh://, file:// or is git@host:path."
        )
    if parts.query or parts.fragment:
        raise RemoteURLError("A repository URL has no ?query or #fragment.")
    if protocol == "file":
        if parts.netloc or not parts.path.startswith("/"):
            raise RemoteURLError("A file:// URL names an absolute folder: file:///path/to/repo.")
        return RemoteURL(url, protocol, "", parts.path)
    if protocol == "https" and (parts.username or parts.password):
        raise RemoteURLError(
            "The URL holds a user name or password; give the token in the token field instead."
        )
    if parts.password:
        raise RemoteURLError("The URL holds a password; use an SSH deploy key instead.")
    host = parts.hostname or ""
    parts.port  # noqa: B018  # raises ValueError for a port that is no number from 0 to 65535
    if not _HOST.match(host) or host.startswith("-"):
        raise RemoteURLError("The URL names no host.")
    if parts.path in ("", "/"):
        raise RemoteURLError("The URL names no repository on its host.")
    return RemoteURL(url, protocol, host, parts.path.lstrip("/"))


def compare_link(remote: RemoteURL, base: str, branch: str) -> str | None:
    """The page of the remote's host that proposes merging `branch` into `base`, for GitHub,
    GitLab and Gitea recognised by the host's name; None for any other host."""
    project = remote.path.removesuffix("/").removesuffix(".git")
    if remote.protocol == "file" or not project:
        return None
    host = remote.host.lower()
    web = f"https://{host}/{project}"
    if host == "github.com":
        return f"{web}/compare/{quote(base)}...{quote(branch)}?expand=1"
    if "gitlab" in host.split("."):
        return (
            f"{web}/-/merge_requests/new?merge_request%5Bsource_branch%5D={quote(branch, safe='')}"
            f"&merge_request%5Btarget_branch%5D={quote(base, safe='')}"
        )
    if "gitea" in host.split(".") or host == "codeberg.org":
        return f"{web}/compare/{quote(base)}...{quote(branch)}"
    return None
