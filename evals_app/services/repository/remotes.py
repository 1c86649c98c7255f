"""Repositories linked by URL from the browser: the server's own bare clone, fetched before a
check or a publish, and each publish's commit pushed to a branch of the remote
(docs/sync.md, "Remotes").

The clone is a cache of the remote's branches (`git fetch +refs/heads/*:refs/heads/*`), never
a work tree. A publish makes its commit as for any linked repository (publishing.py) and
pushes it before the clone's branch moves, so a refused push leaves nothing published.
"""

from __future__ import annotations

import shutil
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.views.decorators.debug import sensitive_variables

from ...eval_files.paths import PathError, check_path
from ...models import RepositoryRemote, Workspace
from ..jobs.progress import Progress, no_progress
from . import git as git_repository
from . import pending_publish
from .credentials import Credential, CredentialError, check_secret, encrypt, transport_for
from .local_roots import LocalRootError, check_local_root
from .pending_publish import PendingPublish, PublishUndone
from .publishing import PublishResult, publish_workspace
from .remote_urls import RemoteURLError, compare_link, parse_remote_url
from .sync import sync_repository
from .three_way import SyncReport

BRANCH_PREFIX = "agentv-web"


class LinkRefused(Exception):
    """The repository was not linked; nothing was kept. The message says why, and `field`
    names the link form's field at fault ("" when none is)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class LinkRequest:
    """What the link form asks for: the URL, the branch, the folder in it, the credential
    (never in the request's repr, which an error report may show)."""

    url: str
    branch: str
    folder: str = ""
    credential_kind: str = ""
    secret: str = field(default="", repr=False)


@dataclass
class RemotePublish:
    """A publish, and the page where the remote's host opens a pull request for it (None
    when the workspace has no remote, nothing was pushed, or the host is not recognised)."""

    result: PublishResult
    pushed: bool = False
    compare_link: str | None = None


def remote_of(workspace: Workspace) -> RepositoryRemote | None:
    """The remote the workspace was linked to by URL, None for a local repository."""
    return RepositoryRemote.objects.filter(workspace=workspace).first()


def clone_folder(workspace: Workspace) -> Path:
    """Where the server keeps the workspace's clone, under AGENTV_REPOSITORIES_DIR."""
    return Path(settings.AGENTV_REPOSITORIES_DIR) / f"workspace-{workspace.pk}.git"


def default_publish_branch(workspace: Workspace, day: date | None = None) -> str:
    """The branch a publish to a remote proposes: a new one per workspace and day."""
    return f"{BRANCH_PREFIX}/{workspace.slug}-{(day or date.today()).isoformat()}"


@sensitive_variables("request")
def link_remote(
    workspace: Workspace,
    request: LinkRequest,
    actor: User | None = None,
    *,
    checked: str | None = None,
    progress: Progress = no_progress,
) -> tuple[str, SyncReport]:
    """Clone the repository at `request.url`, link the workspace to its branch and folder, and
    bring the folder's eval files in by the three-way rule (docs/sync.md). Returns the commit
    and the sync's report. With `checked` (the commit a link's preview showed), the branch
    must still be there. Raises LinkRefused, CredentialError, GitError or ImportFailed,
    having kept nothing (no clone, no credential, no link)."""
    remote = checked_remote(workspace, request, actor)
    folder = checked_folder(request.folder)
    return link_checked(workspace, remote, folder, actor, checked=checked, progress=progress)


def link_checked(
    workspace: Workspace,
    remote: RepositoryRemote,
    folder: str,
    actor: User | None = None,
    *,
    checked: str | None = None,
    progress: Progress = no_progress,
) -> tuple[str, SyncReport]:
    """`link_remote` of a remote and folder already checked (`checked_remote`). The clone,
    the fetch and the reading of the commit happen outside any transaction; the link is saved
    in the sync's one transaction, so a refused sync keeps no link (docs/jobs.md)."""
    if workspace.linked or remote_of(workspace) is not None:
        raise LinkRefused(f"Workspace {workspace.name!r} is already linked to a repository.")
    clone = clone_folder(workspace)
    try:
        tip = fetch_linked_branch(clone, remote, folder)
        if checked is not None and checked != tip:
            raise LinkRefused(
                f"Branch {remote.branch!r} is at {tip[:12]}, not at the commit the preview "
                f"showed ({checked[:12]!r}): preview the link again.",
                "commit",
            )
        workspace.repository_path = str(clone)
        workspace.repository_folder = folder
        workspace.repository_branch = remote.branch
        workspace.base_commit = tip

        def save_link() -> None:
            remote.save()
            workspace.save(
                update_fields=[
                    "repository_path",
                    "repository_folder",
                    "repository_branch",
                    "base_commit",
                    "updated_at",
                ]
            )

        return sync_repository(
            workspace, checked=checked, actor=actor, progress=progress, on_write=save_link
        )
    except BaseException:
        shutil.rmtree(clone, ignore_errors=True)
        workspace.refresh_from_db()
        raise


def fetch_linked_branch(clone: Path, remote: RepositoryRemote, folder: str) -> str:
    """Make `clone` a fresh bare clone of `remote` (the server's own folder: one a failed link
    left is replaced) and return the tip of its branch, which must exist and hold `folder`.
    Raises LinkRefused, GitError, CredentialError."""
    if clone.exists():
        shutil.rmtree(clone)
    git_repository.init_bare(clone)
    git_repository.check_branch_name(clone, remote.branch)
    with transport_for(remote) as transport:
        git_repository.fetch_branches(clone, remote.url, transport)
    tip = git_repository.branch_commit(clone, remote.branch)
    if tip is None:
        raise LinkRefused(f"The repository has no branch {remote.branch!r}.", "branch")
    if folder and not git_repository.list_files(clone, tip, folder):
        raise LinkRefused(f"Branch {remote.branch!r} has no folder {folder!r}.", "folder")
    return tip


@sensitive_variables("request", "stored")
def checked_remote(
    workspace: Workspace, request: LinkRequest, actor: User | None = None
) -> RepositoryRemote:
    """The remote to save, unsaved: URL, branch and credential checked, the secret encrypted.
    A `file://` URL asked for by `actor` (the browser, the API) needs a staff account
    (docs/security.md). Raises LinkRefused naming the field at fault."""
    protocols = list(settings.AGENTV_REPOSITORY_PROTOCOLS)
    try:
        parsed = parse_remote_url(request.url.strip(), protocols)
        if parsed.protocol == "file":
            if actor is not None and not actor.is_staff:
                raise LinkRefused(
                    "Only a staff account may link a local repository (file://).", "url"
                )
            check_local_root(parsed.local_path, from_the_browser=True)
    except (RemoteURLError, LocalRootError) as error:
        raise LinkRefused(str(error), "url") from None
    limit = RepositoryRemote._meta.get_field("url").max_length or 0
    if len(parsed.url) > limit:
        raise LinkRefused(f"The URL is longer than {limit} characters.", "url")
    branch = request.branch.strip()
    if not branch:
        raise LinkRefused("Name the branch to link.", "branch")
    kind = request.credential_kind
    if kind not in Credential.values:
        raise LinkRefused(
            "Choose no credential, an HTTPS token or an SSH deploy key.", "credential_kind"
        )
    if kind == Credential.TOKEN and parsed.protocol != "https":
        raise LinkRefused("A token is sent over https:// only.", "credential_kind")
    if kind == Credential.SSH_KEY and parsed.protocol != "ssh":
        raise LinkRefused(
            "A deploy key is used over ssh:// or git@host:path only.", "credential_kind"
        )
    try:
        stored = encrypt(check_secret(kind, request.secret)) if kind else b""
    except CredentialError as error:
        raise LinkRefused(str(error), "secret") from None
    return RepositoryRemote(
        workspace=workspace,
        url=parsed.url,
        branch=branch,
        credential_kind=kind,
        credential=stored,
    )


def checked_folder(folder: str) -> str:
    """The folder in the repository as the link keeps it ("" for the top). Raises
    LinkRefused."""
    folder = folder.strip().strip("/")
    if not folder:
        return ""
    try:
        return check_path(folder)
    except PathError as error:
        raise LinkRefused(f"Folder {error}", "folder") from None


def fetch_remote(workspace: Workspace) -> None:
    """Bring the clone's branches up to the remote's (nothing for a local repository); a
    publish a crash left before its push is pushed first. Raises GitError, CredentialError."""
    remote = remote_of(workspace)
    if remote is None:
        return
    with transport_for(remote) as transport:
        _push_pending(workspace, remote, transport)
        git_repository.fetch_branches(Path(workspace.repository_path), remote.url, transport)


def check_for_changes(workspace: Workspace) -> tuple[str, SyncReport]:
    """Fetch, then what a sync with the followed branch would do (a dry run)."""
    return fetch_and_sync(workspace, dry_run=True)


def fetch_and_sync(
    workspace: Workspace,
    ref: str | None = None,
    *,
    dry_run: bool = False,
    actor: User | None = None,
) -> tuple[str, SyncReport]:
    """`sync_repository` after a fetch from the workspace's remote, if it has one."""
    fetch_remote(workspace)
    return sync_repository(workspace, ref, dry_run=dry_run, actor=actor)


def publish_and_push(
    workspace: Workspace,
    branch: str,
    *,
    approved_only: bool = False,
    skip_conflicts: bool = False,
    message: str = "",
    actor: User | None = None,
) -> RemotePublish:
    """Publish (publishing.py); for a remote, fetch first and push the commit to `branch` of
    the remote with the branch's expected old value before the clone's branch moves. A push
    the remote refuses undoes the publish (PublishRefused): nothing is published."""
    publish = partial(
        publish_workspace,
        workspace,
        branch,
        approved_only=approved_only,
        skip_conflicts=skip_conflicts,
        message=message,
        actor=actor,
    )
    remote = remote_of(workspace)
    if remote is None:
        return RemotePublish(publish())
    repository = Path(workspace.repository_path)
    with transport_for(remote) as transport:
        _push_pending(workspace, remote, transport)
        git_repository.fetch_branches(repository, remote.url, transport)

        def push(pending: PendingPublish) -> None:
            try:
                git_repository.push_branch(
                    repository,
                    remote.url,
                    transport,
                    pending.commit,
                    pending.branch,
                    pending.expected,
                )
            except git_repository.GitError as error:
                pending_publish.undo(workspace.pk, pending)
                raise PublishUndone(
                    f"the remote refused the push ({error}); nothing was published: check "
                    "for changes, then publish again"
                ) from None

        result = publish(push=push)
    if result.commit is None:
        return RemotePublish(result)
    RepositoryRemote.objects.filter(pk=remote.pk).update(pushed_branch=branch)
    return RemotePublish(result, True, pushed_compare_link(remote, branch))


def pushed_compare_link(remote: RepositoryRemote, branch: str | None = None) -> str | None:
    """The pull-request page for `branch` (default: the last one pushed) into the linked
    branch, when the host is GitHub, GitLab or Gitea."""
    branch = branch or remote.pushed_branch
    if not branch:
        return None
    try:
        parsed = parse_remote_url(remote.url, list(settings.AGENTV_REPOSITORY_PROTOCOLS))
    except RemoteURLError:
        return None
    return compare_link(parsed, remote.branch, branch)


def _push_pending(
    workspace: Workspace, remote: RepositoryRemote, transport: git_repository.Transport
) -> None:
    """Push the commit of a publish a crash left recorded but not pushed; when the remote's
    branch moved meanwhile the push is refused and the sync's settle undoes the publish."""
    record = Workspace.objects.filter(pk=workspace.pk).values_list("pending_publish", flat=True)
    stored = record.first()
    if not stored:
        return
    pending = PendingPublish.from_json(stored)
    with suppress(git_repository.BranchMoved):
        git_repository.push_branch(
            Path(workspace.repository_path),
            remote.url,
            transport,
            pending.commit,
            pending.branch,
            pending.expected,
        )


@dataclass(frozen=True)
class RemotePanel:
    """What the workspace page shows of a remote: never its credential, only which kind."""

    url: str
    linked_branch: str
    credential: str
    publish_branch: str
    pushed_branch: str
    compare_link: str | None


def remote_panel(workspace: Workspace) -> RemotePanel | None:
    """The workspace page's facts about its remote, None for a local repository."""
    # An unlinked workspace has no remote: its page makes no query for one.
    remote = remote_of(workspace) if workspace.linked else None
    if remote is None:
        return None
    return RemotePanel(
        url=remote.url,
        linked_branch=remote.branch,
        credential=remote.get_credential_kind_display() if remote.credential_kind else "none",
        publish_branch=default_publish_branch(workspace),
        pushed_branch=remote.pushed_branch,
        compare_link=pushed_compare_link(remote),
    )
