"""Asking for a link of a repository, or for another branch or folder of a linked one: the
checks the pages and the API share, then the job (linking.py; docs/sync.md, "Remotes")."""

from __future__ import annotations

import base64

from django.contrib.auth.models import User
from django.views.decorators.debug import sensitive_variables

from ...models import Job, Workspace
from ..jobs.queue import start_job
from .remotes import LinkRefused, LinkRequest, checked_folder, checked_remote, remote_of


@sensitive_variables("request", "remote")
def ask_link(user: User, workspace: Workspace, request: LinkRequest) -> Job:
    """Queue the preview of linking `workspace` as `request` asks (owners). The URL, branch,
    folder and credential are checked first (LinkRefused naming the field); the secret goes
    to the job encrypted, as the link stores it."""
    if workspace.linked or remote_of(workspace) is not None:
        raise LinkRefused(f"Workspace {workspace.name!r} is already linked to a repository.")
    remote = checked_remote(workspace, request, user)
    folder = checked_folder(request.folder)
    credential = base64.b64encode(bytes(remote.credential)).decode("ascii")
    return start_job(
        Job.Kind.LINK,
        user,
        workspace,
        url=remote.url,
        branch=remote.branch,
        folder=folder,
        credential_kind=remote.credential_kind,
        credential=credential,
    )


def ask_relink(user: User, workspace: Workspace, branch: str, folder: str) -> Job:
    """Queue the preview of following another branch or folder of the repository the
    workspace is linked to by URL (owners). Raises LinkRefused naming the field."""
    remote = remote_of(workspace)
    if remote is None:
        raise LinkRefused("The workspace is not linked to a repository by URL.")
    branch = branch.strip()
    if not branch:
        raise LinkRefused("Name the branch to follow.", "branch")
    return start_job(
        Job.Kind.LINK,
        user,
        workspace,
        relink=True,
        url=remote.url,
        branch=branch,
        folder=checked_folder(folder),
    )


def ask_link_confirmed(user: User, workspace: Workspace, preview: Job, commit: str) -> Job:
    """Queue the link its preview `preview` showed, at `commit` (the commit the preview
    showed: an empty or another one is refused)."""
    shown = preview.result.get("link_commit") if preview.state == Job.State.DONE else None
    if preview.kind != Job.Kind.LINK or preview.workspace_id != workspace.pk or not shown:
        raise LinkRefused("Preview the link first: confirm the commit its preview showed.")
    if commit != shown:
        raise LinkRefused(
            f"The preview showed commit {shown[:12]}, not {commit[:12]!r}: confirm the commit "
            "the preview showed.",
            "commit",
        )
    arguments = {**preview.arguments, "commit": commit}
    return start_job(Job.Kind.LINK, user, workspace, **arguments)
