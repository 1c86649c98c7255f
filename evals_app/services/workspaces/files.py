"""A workspace's text files: guidelines, attachments, judge prompts and configs.

Formatting reads files and patterns from the database, so every preview follows a change here
at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Func, IntegerField
from django.db.models.expressions import Combinable
from django.db.models.sql.compiler import SQLCompiler

from ...eval_files.configs import Config, patterns_for
from ...formatting.guideline_patterns import is_guideline
from ...models import ActivityRecord, Workspace, WorkspaceFile
from ..cases.summaries import mark_file_stale
from ..profiles.workspace_formatter import workspace_configs
from .activity import record_activity
from .paths import WorkspacePathError, check_path_free, clean_path

if TYPE_CHECKING:
    from django.db.models.sql.compiler import _AsSqlType


class FileContentError(Exception):
    """A file's content cannot be stored: too large, not UTF-8, or binary."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TextBytes(Func):
    """The size of a text column in UTF-8 bytes (SQLite before 3.43 has no `octet_length`)."""

    function = "OCTET_LENGTH"
    output_field = IntegerField()

    def __init__(self, expression: Combinable | str) -> None:
        super().__init__(expression)

    def as_sqlite(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra_context: Any
    ) -> _AsSqlType:
        return self.as_sql(
            compiler, connection, template="LENGTH(CAST(%(expressions)s AS BLOB))", **extra_context
        )


@dataclass(frozen=True)
class FileRow:
    """A stored file as the workspace page lists it."""

    pk: int
    path: str
    size: int
    is_guideline: bool


def file_rows(workspace: Workspace, configs: dict[str, Config] | None = None) -> list[FileRow]:
    """The workspace's files by path, with size and whether they are guidelines by the config
    nearest to them (`configs`: see `workspace_configs`, read when not given)."""
    configs = workspace_configs(workspace) if configs is None else configs
    files = workspace.files.order_by("path").annotate(size=TextBytes("text"))
    return [
        FileRow(pk, path, size, is_guideline=is_guideline(path, patterns_for(path, configs)))
        for pk, path, size in files.values_list("pk", "path", "size")
    ]


def max_file_bytes() -> int:
    """The largest file a person may store, in bytes (setting AGENTV_MAX_UPLOAD_BYTES)."""
    return int(settings.AGENTV_MAX_UPLOAD_BYTES)


def create_file(
    workspace: Workspace, path: str, text: str, actor: User | None = None
) -> WorkspaceFile:
    """Store a new file at `path`.

    Raises WorkspacePathError for a bad or taken path, FileContentError for unusable text.
    """
    path = clean_path(path)
    _check_text(text)
    with transaction.atomic():
        check_path_free(workspace, path)
        file = WorkspaceFile.objects.create(workspace=workspace, path=path, text=text)
        # After the write: the worker's refresh, queued here, reads the files as they are now.
        mark_file_stale(workspace, path)
        record_activity(workspace, actor, ActivityRecord.Action.FILE_ADDED, path, file=file)
    return file


def update_file(
    file: WorkspaceFile, path: str, text: str, actor: User | None = None
) -> WorkspaceFile:
    """Replace the text of `file` and move it to `path` (which may be its current one)."""
    path = clean_path(path)
    _check_text(text)
    with transaction.atomic():
        check_path_free(file.workspace, path, file=file)
        old_path = file.path
        detail = f"renamed from {file.path}" if path != file.path else ""
        file.path = path
        file.text = text
        file.save(update_fields=["path", "text", "updated_at"])
        mark_file_stale(file.workspace, old_path)
        mark_file_stale(file.workspace, path)
        action = ActivityRecord.Action.FILE_EDITED
        record_activity(file.workspace, actor, action, path, detail, file=file)
    return file


def delete_file(file: WorkspaceFile, actor: User | None = None) -> None:
    """Delete `file`; cases that reference it then show it as missing."""
    with transaction.atomic():
        record_activity(file.workspace, actor, ActivityRecord.Action.FILE_DELETED, file.path)
        workspace, path = file.workspace, file.path
        file.delete()
        mark_file_stale(workspace, path)


def upload_file(
    workspace: Workspace,
    upload: UploadedFile,
    path: str = "",
    *,
    replace: bool = False,
    actor: User | None = None,
) -> WorkspaceFile:
    """Store an uploaded UTF-8 text file at `path` (default: the uploaded file's name).

    With `replace`, a file already at that path gets the new text; otherwise that is an error.
    Raises FileContentError when the upload is too large, not UTF-8, or binary.
    """
    path = clean_path(path or upload.name or "")
    limit = max_file_bytes()
    # Checked before reading: the upload may be a large temporary file on disk.
    if upload.size is not None and upload.size > limit:
        raise FileContentError(_too_large(upload.size, limit))
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise FileContentError(_too_large(len(data), limit))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        message = f"{path} is not UTF-8 text; only text files can be stored."
        raise FileContentError(message) from None
    _check_text(text)
    with transaction.atomic():
        existing = workspace.files.select_for_update().filter(path=path).first()
        if existing is not None and replace:
            existing.text = text
            existing.save(update_fields=["text", "updated_at"])
            mark_file_stale(workspace, path)
            action = ActivityRecord.Action.FILE_EDITED
            record_activity(workspace, actor, action, path, "uploaded", file=existing)
            return existing
        if existing is not None:
            raise WorkspacePathError(
                f"{path} already exists; tick “Replace” to overwrite it.", path
            )
        check_path_free(workspace, path)
        file = WorkspaceFile.objects.create(workspace=workspace, path=path, text=text)
        mark_file_stale(workspace, path)
        action = ActivityRecord.Action.FILE_ADDED
        record_activity(workspace, actor, action, path, "uploaded", file=file)
    return file


def _check_text(text: str) -> None:
    size = len(text.encode("utf-8"))
    if size > max_file_bytes():
        raise FileContentError(_too_large(size, max_file_bytes()))
    if "\x00" in text:
        # PostgreSQL text cannot hold NUL, and a file with NUL bytes is not a text file.
        raise FileContentError("The file contains NUL bytes; only text files can be stored.")


def _too_large(size: int, limit: int) -> str:
    return f"The file is {size:,} bytes; the limit is {limit:,} bytes."
