"""What each kind of job does in the worker: the service it calls, and the result its page
shows, a sentence with links (docs/jobs.md)."""

from __future__ import annotations

import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import connection
from django.urls import reverse

from ...models import Case, Job, ReviewStatus, Suite
from ...permissions import may_manage
from ..cases.search_index import update_planner_statistics
from ..exports.exporting import export_workspace
from ..imports.folders import ImportFailed
from ..imports.reimport_report import reimport_counts
from ..imports.tests_from_tools import TestsImportRefused, files_from_uploads, import_tests
from ..imports.zip_import import ZipImportFailed, import_zip, zip_limits
from ..repository.credentials import CredentialError
from ..repository.git import GitError
from ..repository.killed_publish import killed_publish_report
from ..repository.linking import link_repository
from ..repository.publishing import PublishRefused
from ..repository.remotes import fetch_remote, publish_and_push
from ..repository.sync import NotLinked, sync_repository
from ..repository.three_way import OUTCOME_KINDS
from ..runs.running import run_cases
from ..suites.upgrade import upgrade_suites
from .leftovers import job_files, scratch_folder
from .progress import Progress
from .running import Operation, OperationRefused

LINES_SHOWN = 100  # warnings, conflicts or changes a result lists; the rest are counted
REPOSITORY_REFUSALS = (GitError, NotLinked, ImportFailed, PublishRefused, CredentialError)


def export_file(job: Job) -> Path:
    """Where an export job puts its .zip."""
    return job_files() / "exports" / f"{job.pk}.zip"


def finished_export(job: Job) -> tuple[Path, str] | None:
    """The .zip a finished export job made and the name to download it as; None when the
    job made none (another kind, not done, or the file is gone)."""
    path = export_file(job)
    if job.kind != Job.Kind.EXPORT or job.state != Job.State.DONE or not path.exists():
        return None
    suffix = "-approved" if job.arguments.get("approved_only") else ""
    slug = job.workspace.slug if job.workspace else "export"
    return path, f"{slug}{suffix}.zip"


def _result(summary: str, links: list[tuple[str, str]], lines: list[str]) -> dict[str, Any]:
    return {
        "summary": summary,
        "links": [{"label": label, "url": url} for label, url in links],
        "lines": lines[:LINES_SHOWN],
        "more_lines": max(len(lines) - LINES_SHOWN, 0),
    }


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' * (count != 1)}"


def import_archive(job: Job, progress: Progress) -> dict[str, Any]:
    """Import the uploaded .zip the job names, then remove it."""
    upload = job_files() / "uploads" / job.arguments["upload"]
    importer = job.requested_by
    scratch = scratch_folder(job, "import")
    try:
        with upload.open("rb") as archive:
            summary = import_zip(
                archive,
                job.arguments.get("name", ""),
                importer,
                lambda workspace: may_manage(importer, workspace),
                fallback_name=job.arguments.get("fallback_name", "Imported workspace"),
                progress=progress,
                unpack_in=scratch,
            )
    except ZipImportFailed as failure:
        raise OperationRefused("\n".join(failure.errors)) from None
    finally:
        upload.unlink(missing_ok=True)
        shutil.rmtree(scratch, ignore_errors=True)
    workspace = summary.workspace
    update_planner_statistics(connection)
    Job.objects.filter(pk=job.pk).update(workspace=workspace)
    text = (
        f"Imported {workspace.name}: {_plural(summary.suites, 'suite')}, "
        f"{_plural(summary.cases, 'case')} and {_plural(summary.files, 'file')}."
    )
    lines = []
    if summary.sync is not None:  # a re-import into a workspace: what it did to the cases
        counts = reimport_counts(summary.sync)
        removed = f", {counts.removed} removed" if counts.removed else ""
        text = (
            f"Re-imported into {workspace.name}: {counts.added} added, {counts.changed} "
            f"changed, {counts.kept} kept, {counts.in_conflict} in conflict{removed}."
        )
        lines += [f"Conflict: {conflict}" for conflict in counts.conflicts]
    lines += [f"Skipped {path}: {why}" for path, why in summary.skipped] + summary.warnings
    return _result(text, [("Open the workspace", workspace.get_absolute_url())], lines)


def import_tests_of_tools(job: Job, progress: Progress) -> dict[str, Any]:
    """Import the uploaded files of other tools' tests into the suite the job names, then
    remove the uploads (docs/imports.md)."""
    workspace = job.workspace
    assert workspace is not None
    kept = [(name, job_files() / "uploads" / stored) for name, stored in job.arguments["files"]]
    try:
        opened = [(name, path.open("rb")) for name, path in kept]
        try:
            files = files_from_uploads(opened, zip_limits())
        finally:
            for _, upload in opened:
                upload.close()
        imported = import_tests(
            workspace,
            files,
            job.arguments["suite"],
            forced=job.arguments.get("source") or None,
            turns=job.arguments.get("turns") or None,
            actor=job.requested_by,
            progress=progress,
        )
    except TestsImportRefused as refusal:
        raise OperationRefused(f"Nothing was imported: {refusal.message}") from None
    finally:
        for _, path in kept:
            path.unlink(missing_ok=True)
    conversion = imported.conversion
    count = len(conversion.tests)
    verb = "into a new suite" if imported.created else "at the end of"
    text = f"Imported {_plural(count, 'test')} {verb} {imported.suite.path}."
    lines = [
        f"{result.path}: {result.format}: {_plural(len(result.tests), 'test')}"
        for result in conversion.files
    ]
    lines += [f"Warning: {warning}" for warning in conversion.all_warnings]
    lines += [f"Skipped {path}: {why}" for path, why in conversion.skipped]
    suite_page = reverse("suite_detail", args=[workspace.slug, imported.suite.pk])
    return _result(text, [("Open the suite", suite_page)], lines)


def export_archive(job: Job, progress: Progress) -> dict[str, Any]:
    """Export the workspace into a .zip kept for download."""
    workspace = job.workspace
    assert workspace is not None
    approved_only = bool(job.arguments.get("approved_only"))
    target = export_file(job)
    target.parent.mkdir(parents=True, exist_ok=True)
    chosen = Case.objects.filter(suite__workspace=workspace)
    cases = (chosen.filter(status=ReviewStatus.APPROVED) if approved_only else chosen).count()
    written = [0]

    def on_case() -> None:
        written[0] += 1
        if written[0] % 100 == 0 or written[0] == cases:
            progress(written[0], cases, "cases written")

    folder = scratch_folder(job, "export")  # the sweep's to remove if the worker is killed
    try:
        progress(0, cases, "cases written")
        summary = export_workspace(
            workspace, Path(folder), approved_only=approved_only, jobs=1, on_case=on_case
        )
        partial = target.with_suffix(".partial")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as zipped:
            for path in sorted(summary.folder.rglob("*")):
                if path.is_file():
                    zipped.write(path, path.relative_to(Path(folder)).as_posix())
        # In place only once whole: a download never gets half an archive.
        partial.replace(target)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    text = f"Exported {_plural(summary.suites, 'suite')} and {_plural(summary.cases, 'case')}."
    download = reverse("job_download", args=[job.pk])
    return _result(text, [("Download the export", download)], summary.warnings)


def check_repository(job: Job, progress: Progress) -> dict[str, Any]:
    """What applying the followed branch would do, writing nothing."""
    workspace = job.workspace
    assert workspace is not None
    try:
        fetch_remote(workspace)  # a repository linked by URL: its branch as the remote has it
        commit, report = sync_repository(workspace, dry_run=True, progress=progress)
    except REPOSITORY_REFUSALS as error:
        raise OperationRefused(f"The repository could not be read: {error}") from None
    counts = ", ".join(f"{report.counts[kind]} {kind}" for kind in OUTCOME_KINDS)
    lines = [f"{o.kind}: {o.suite_path} {o.case_id}" for o in report.outcomes]
    lines += [f"Skipped {path}: {why}" for path, why in report.skipped]
    result = _result(
        f"The branch is at {commit[:12]}: {counts}.",
        [("Open the workspace", workspace.get_absolute_url())],
        lines,
    )
    result["apply_commit"] = commit
    return result


def apply_repository(job: Job, progress: Progress) -> dict[str, Any]:
    """Apply the commit the check showed (docs/sync.md)."""
    workspace = job.workspace
    assert workspace is not None
    try:
        commit, report = sync_repository(
            workspace,
            # Only the commit the check showed: an empty one is refused like another.
            checked=str(job.arguments.get("commit", "")),
            actor=job.requested_by,
            progress=progress,
        )
    except REPOSITORY_REFUSALS as error:
        raise OperationRefused(f"Nothing was synced: {error}") from None
    update_planner_statistics(connection)
    counts = ", ".join(f"{report.counts[kind]} {kind}" for kind in OUTCOME_KINDS)
    lines = [f"Conflict: {o.suite_path} {o.case_id}" for o in report.conflicts]
    lines += [f"Skipped {path}: {why}" for path, why in report.skipped]
    text = f"Synced with {commit[:12]}: {counts}."
    return _result(text, [("Open the workspace", workspace.get_absolute_url())], lines)


def publish(job: Job, progress: Progress) -> dict[str, Any]:
    """Commit the workspace on the branch the job names."""
    workspace = job.workspace
    assert workspace is not None
    branch = job.arguments["branch"]
    progress(0, 1, "commits made")
    try:
        published = publish_and_push(
            workspace,
            branch,
            approved_only=bool(job.arguments.get("approved_only")),
            skip_conflicts=bool(job.arguments.get("skip_conflicts")),
            message=job.arguments.get("message", ""),
            actor=job.requested_by,
        )
    except REPOSITORY_REFUSALS as error:
        # A refusal for open conflicts names them; the workspace page lists them with links.
        raise OperationRefused(f"Nothing was published: {error}") from None
    result = published.result
    first, *rest = result.lines()
    links = [("Open the workspace", workspace.get_absolute_url())]
    if published.compare_link:
        links.append(("Open a pull request", published.compare_link))
    pushed = " It was pushed to the remote." if published.pushed else ""
    return _result(f"{first}{pushed}" if result.commit else first, links, rest)


def upgrade(job: Job, progress: Progress) -> dict[str, Any]:
    """Upgrade the suite the job names to today's format."""
    workspace = job.workspace
    assert workspace is not None
    suite = Suite.objects.filter(workspace=workspace, pk=job.arguments["suite"]).first()
    if suite is None:
        raise OperationRefused("The suite was deleted before it could be upgraded.")
    suite.workspace = workspace
    plan = upgrade_suites(workspace, [suite], job.requested_by, progress=progress)
    count = sum(len(item.changed_cases) for item in plan.suites)
    text = (
        f"Upgraded {suite.path} to today's format: {_plural(count, 'case')} changed, "
        "each as a new revision."
    )
    url = reverse("suite_detail", args=[workspace.slug, suite.pk])
    return _result(text, [("Open the suite", url)], [])


OPERATIONS: dict[str, Operation] = {
    Job.Kind.IMPORT: import_archive,
    Job.Kind.EXPORT: export_archive,
    Job.Kind.CHECK: check_repository,
    Job.Kind.SYNC: apply_repository,
    Job.Kind.PUBLISH: publish,
    Job.Kind.UPGRADE: upgrade,
    Job.Kind.RUN: run_cases,
    Job.Kind.LINK: link_repository,
    Job.Kind.IMPORT_TESTS: import_tests_of_tools,
}

# What a job whose worker was killed says landed, when the kind can tell (workers.py).
KILLED_REPORTS: dict[str, Callable[[Job], str | None]] = {
    Job.Kind.PUBLISH: killed_publish_report,
}
