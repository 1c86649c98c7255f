"""Asking for each kind of job, with the checks made before it is queued: the same for the
pages and the API (docs/jobs.md, docs/api.md). Who may ask is the caller's check (the
workspace role each entry point requires)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import IO

from django.contrib.auth.models import User

from ...models import Case, Job, ReviewStatus, Suite, Workspace
from ...other_tools.registry import BY_NAME, FORMAT_NAMES
from ...permissions import blind_workspaces
from ..imports.tests_from_tools import TestsImportRefused, clean_suite_path
from ..imports.zip_import import zip_limits
from .queue import keep_upload, start_job


class JobRefused(Exception):
    """A job that is not queued, and why, in words for the person who asked."""


def ask_export(user: User, workspace: Workspace, *, approved_only: bool) -> Job:
    """Queue the workspace's export as a .zip; refused when only approved cases are asked for
    and none is approved (the archive would hold only empty suites), or by someone who reviews
    blind (it would tell them which cases others approved)."""
    if approved_only and blind_workspaces(user).filter(pk=workspace.pk).exists():
        raise JobRefused(
            f"{workspace.name} reviews blind: an approved-only export would show you which "
            "cases others approved. Download the full export, or ask an editor for this one."
        )
    approved = Case.objects.filter(suite__workspace=workspace, status=ReviewStatus.APPROVED)
    if approved_only and not approved.exists():
        raise JobRefused(
            f"No case of {workspace.name} is approved yet, so an approved-only export would "
            "hold only empty suites. Download the full export, or approve cases first."
        )
    return start_job(Job.Kind.EXPORT, user, workspace, approved_only=approved_only)


def ask_check(user: User, workspace: Workspace) -> Job:
    """Queue a check of what a sync with the linked branch would do."""
    return start_job(Job.Kind.CHECK, user, workspace)


def ask_sync(user: User, workspace: Workspace, commit: str) -> Job:
    """Queue applying the linked branch at `commit` (the commit a check reported; the job
    refuses if the branch moved since); refused without one, as Apply takes only the commit
    a check showed (docs/sync.md)."""
    commit = commit.strip()
    if not commit:
        raise JobRefused(
            "Apply needs the commit Check for changes showed: check for changes first, then "
            "apply from its page."
        )
    return start_job(Job.Kind.SYNC, user, workspace, commit=commit)


def ask_publish(
    user: User,
    workspace: Workspace,
    branch: str,
    *,
    approved_only: bool = False,
    skip_conflicts: bool = False,
    message: str = "",
) -> Job:
    """Queue committing the workspace on `branch` (refused without a branch name)."""
    branch = branch.strip()
    if not branch:
        raise JobRefused("Name the branch to publish to.")
    return start_job(
        Job.Kind.PUBLISH,
        user,
        workspace,
        branch=branch,
        approved_only=approved_only,
        skip_conflicts=skip_conflicts,
        message=message.strip(),
    )


def ask_upgrade(user: User, workspace: Workspace, suite: Suite) -> Job:
    """Queue upgrading `suite` to today's format (refused for a read-only CSV suite)."""
    if suite.read_only:
        raise JobRefused("A CSV file of cases is read-only: it cannot be upgraded.")
    return start_job(Job.Kind.UPGRADE, user, workspace, suite=suite.pk)


def ask_import(user: User, archive: IO[bytes], size: int, file_name: str, name: str) -> Job:
    """Queue importing the uploaded .zip `archive` (`size` bytes, uploaded as `file_name`) as
    the workspace `name` (by default the .zip's name); refused when larger than the limit
    (the worker checks the rest of the limits)."""
    limit = zip_limits().compressed_bytes
    if size > limit:
        raise JobRefused(f"The .zip is {size:,} bytes; the limit is {limit:,}.")
    return start_job(
        Job.Kind.IMPORT,
        user,
        None,
        upload=keep_upload(archive),
        name=name,
        fallback_name=PurePath(file_name).stem or "Imported workspace",
    )


def ask_import_tests(
    user: User,
    workspace: Workspace,
    uploads: Sequence[tuple[str, IO[bytes], int]],
    suite_path: str,
    *,
    source: str = "",
    turns: Mapping[str, Sequence[int]] | None = None,
) -> Job:
    """Queue importing the tests of other tools in the uploaded files (`(name, file, size)`;
    a .zip is unpacked by the worker) into the suite at `suite_path` (docs/imports.md);
    refused with no file, an unknown format, a malformed path, or more than the upload limit."""
    if not uploads:
        raise JobRefused("Choose the files to import (or a .zip of them).")
    if source and source not in BY_NAME:
        raise JobRefused(f"Unknown format {source!r}; one of: {', '.join(FORMAT_NAMES)}.")
    try:
        path = clean_suite_path(suite_path)
    except TestsImportRefused as refusal:
        raise JobRefused(refusal.message) from None
    limit = zip_limits().compressed_bytes
    size = sum(size for _, _, size in uploads)
    if size > limit:
        raise JobRefused(f"The files are {size:,} bytes; the limit is {limit:,}.")
    kept = [[PurePath(name).name, keep_upload(upload)] for name, upload, _ in uploads]
    chosen = {name: [int(n) for n in numbers] for name, numbers in (turns or {}).items()}
    return start_job(
        Job.Kind.IMPORT_TESTS,
        user,
        workspace,
        files=kept,
        suite=path,
        source=source,
        turns=chosen,
    )
