"""Paths of the files and eval files a person adds to a workspace: checked before they are stored.

Export writes every stored file and suite at its path under the workspace folder
(docs/formats.md, "Command-line contract"), so a path must stay inside that folder and must not
clash with another file or folder; eval files never live in a `.agentv/` folder.
"""

from __future__ import annotations

from django.db.models import Q

from ...eval_files.dialects import IGNORED_FOLDERS
from ...eval_files.discovery import YAML_SUFFIXES
from ...eval_files.paths import PathError, check_path
from ...models import Suite, Workspace, WorkspaceFile


class WorkspacePathError(Exception):
    """A path that cannot be stored: malformed, reserved, or already in use."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


def clean_path(raw: str) -> str:
    """`raw`, if it is a POSIX path relative to the workspace root that can be stored as typed.

    Raises WorkspacePathError saying what is wrong otherwise (the path rule of
    eval_files/paths.py, which every door uses).
    """
    path = raw
    if not path.strip():
        raise WorkspacePathError("A path is required, e.g. prompts/review.instructions.md.", path)
    try:
        return check_path(path)  # the one path rule (eval_files/paths.py)
    except PathError as error:
        raise WorkspacePathError(error.message, path) from None


def clean_eval_path(raw: str) -> str:
    """Like `clean_path`, for an eval file: the path must also end in .yaml or .yml."""
    path = clean_path(raw)
    if not path.endswith(YAML_SUFFIXES):
        raise WorkspacePathError("An eval file's path must end in .yaml or .yml.", path)
    ignored = [folder for folder in path.split("/")[:-1] if folder in IGNORED_FOLDERS]
    if ignored:
        raise WorkspacePathError(
            f"AgentV never reads eval files in a {ignored[0]}/ folder; choose another.", path
        )
    return path


def check_path_free(
    workspace: Workspace,
    path: str,
    *,
    file: WorkspaceFile | None = None,
    suite: Suite | None = None,
) -> None:
    """Raise WorkspacePathError when `path` is taken in `workspace` by a file or eval file, or
    when it would be a folder of one of them or inside one of them (export could not write both).

    `file` (or `suite`) is the file (or eval file) being renamed, which does not count as taken.
    """
    folders = ["/".join(path.split("/")[:end]) for end in range(1, path.count("/") + 1)]
    clashing = Q(path=path) | Q(path__startswith=f"{path}/") | Q(path__in=folders)
    files = workspace.files.filter(clashing)
    if file is not None:
        files = files.exclude(pk=file.pk)
    suites = Suite.objects.filter(clashing, workspace=workspace)
    if suite is not None:
        suites = suites.exclude(pk=suite.pk)
    taken = (
        files.values_list("path", flat=True).first()
        or suites.values_list("path", flat=True).first()
    )
    if taken is None:
        return
    if taken == path:
        raise WorkspacePathError(f"{path} already exists in this workspace.", path)
    raise WorkspacePathError(f"{path} would clash with {taken} (a file cannot be a folder).", path)
