"""Which local repositories may be linked: only under AGENTV_LOCAL_REPOSITORIES_ROOT
(docs/sync.md, "Remotes")."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings


class LocalRootError(Exception):
    """A local repository outside the configured root; the message says so."""


def check_local_root(path: Path, *, from_the_browser: bool = False) -> None:
    """Raise LocalRootError unless `path` lies under AGENTV_LOCAL_REPOSITORIES_ROOT. Without
    the setting the command line may link any folder (the operator is trusted) and the browser
    none."""
    root = settings.AGENTV_LOCAL_REPOSITORIES_ROOT
    if not root:
        if from_the_browser:
            raise LocalRootError(
                "Local repositories (file://) cannot be linked here: the server has no "
                "AGENTV_LOCAL_REPOSITORIES_ROOT."
            )
        return
    resolved, allowed = path.resolve(), Path(root).resolve()
    if resolved != allowed and allowed not in resolved.parents:
        raise LocalRootError(
            f"{path} is not under {allowed} (AGENTV_LOCAL_REPOSITORIES_ROOT); only repositories "
            "there can be linked."
        )
