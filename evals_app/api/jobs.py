"""Long work from the API: queue an import, export, check, sync, publish or upgrade for the
worker, follow its job, cancel it, download an export (docs/api.md, "Jobs"). The same rights
and checks as the pages (services/jobs/requests.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import FileResponse, Http404, HttpRequest
from django.urls import reverse
from ninja import Field, File, Form, Query, Router, Schema, Status
from ninja.files import UploadedFile

from ..models import Job
from ..permissions import Capability
from ..request_numbers import MAX_DATABASE_INTEGER
from ..services.imports.tests_from_tools import DEFAULT_SUITE
from ..services.jobs.operations import finished_export
from ..services.jobs.queue import cancel_job
from ..services.jobs.requests import (
    JobRefused,
    ask_check,
    ask_export,
    ask_import,
    ask_import_tests,
    ask_publish,
    ask_sync,
    ask_upgrade,
)
from ..services.jobs.workers import notice_dead_workers
from ..services.repository.link_requests import ask_link, ask_link_confirmed
from ..services.repository.remotes import LinkRefused, LinkRequest
from .auth import api_user
from .cursors import BadCursor
from .errors import WORKSPACE_ERRORS, Message
from .lookups import access_to, suite_at
from .pages import Page, PageQuery, page_of

router = Router(tags=["jobs"])


class JobLink(Schema):
    label: str
    url: str


class JobResult(Schema):
    """What a finished job did: a sentence, links (web pages), its warnings, conflicts or
    changes (`lines`, the first 100; `more_lines` counts the rest); a check also gives the
    commit to apply (`apply_commit`), a link's preview the commit to confirm (`link_commit`)."""

    summary: str
    links: list[JobLink]
    lines: list[str]
    more_lines: int
    apply_commit: str | None = None
    link_commit: str | None = None


class JobOut(Schema):
    """A job: what (`kind`), where (`workspace`, its slug), its `state` (queued, running,
    done, failed, cancelled), how far (`done` of `total` `phrase`), its `result` once done
    or its `error` verbatim, its web page, and the export's `download` once made."""

    id: int
    kind: Job.Kind
    state: Job.State
    workspace: str | None
    done: int
    total: int
    phrase: str
    result: JobResult | None
    error: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    page: str
    download: str | None


class ExportRequest(Schema):
    approved_only: bool = Field(False, description="Only the approved cases.")


class SyncRequest(Schema):
    commit: str = Field(
        description="The commit a check reported (`result.apply_commit`): the sync is refused "
        "if the branch has moved since."
    )


class PublishRequest(Schema):
    branch: str = Field(description="The branch to commit on.")
    approved_only: bool = False
    skip_conflicts: bool = False
    message: str = ""


class SuiteAddress(Schema):
    suite: str = Field(description="The path of the suite in the workspace.")


# Optional, so that the caller's role is checked before the files (a request without any is
# refused for them, 409, once the role allows it).
FILES = File(None, description="Other tools' files, or a .zip of them (repeatable).")


class TestsImportForm(Schema):
    """The fields of a tests import besides its files (multipart/form-data)."""

    suite: str = Field(DEFAULT_SUITE, description="The suite file to write or add to.")
    source: str = Field("", alias="from", description="The files' format (default: detected).")
    turn: list[int] = Field(
        default_factory=list,
        description="Sessions: the user turns to test at, from 1 (default: the last answered).",
    )


# What an endpoint that queues a job answers: the job, or why it was not queued.
QUEUED: dict[int, type[Schema]] = {202: JobOut, 409: Message, **WORKSPACE_ERRORS}


def job_out(job: Job) -> JobOut:
    """The API's view of `job`."""
    made_export = job.kind == Job.Kind.EXPORT and job.state == Job.State.DONE
    return JobOut(
        id=job.pk,
        kind=Job.Kind(job.kind),
        state=Job.State(job.state),
        workspace=job.workspace.slug if job.workspace else None,
        done=job.done,
        total=job.total,
        phrase=job.phrase,
        result=JobResult(**job.result) if job.result else None,
        error=job.error,
        created_at=job.created_at,
        started_at=job.started_at,
        finished_at=job.finished_at,
        page=job.get_absolute_url(),
        download=reverse("api-v1:job_download", args=[job.pk]) if made_export else None,
    )


def _queued(job: Job) -> Status:
    return Status(202, job_out(job))


def _refused(refusal: JobRefused) -> Status:
    return Status(409, Message(message=str(refusal)))


@router.post("/workspaces/{slug}/jobs/export", response=QUEUED)
def queue_export(request: HttpRequest, slug: str, asked: ExportRequest) -> Any:
    """Queue the workspace's export as a .zip (any member); `download` once done."""
    access = access_to(request, slug, Capability.VIEW)
    try:
        job = ask_export(api_user(request), access.workspace, approved_only=asked.approved_only)
    except JobRefused as refusal:
        return _refused(refusal)
    return _queued(job)


@router.post("/workspaces/{slug}/jobs/check", response=QUEUED)
def queue_check(request: HttpRequest, slug: str) -> Any:
    """Queue a check of what a sync with the linked branch would do (owners)."""
    access = access_to(request, slug, Capability.MANAGE)
    return _queued(ask_check(api_user(request), access.workspace))


@router.post("/workspaces/{slug}/jobs/sync", response=QUEUED)
def queue_sync(request: HttpRequest, slug: str, asked: SyncRequest) -> Any:
    """Queue applying the linked branch at the checked commit (owners); 400 without one."""
    access = access_to(request, slug, Capability.MANAGE)
    try:
        job = ask_sync(api_user(request), access.workspace, asked.commit)
    except JobRefused as refusal:
        return Status(400, Message(message=str(refusal)))
    return _queued(job)


class LinkIn(Schema):
    url: str = Field(description="https://host/path, ssh://…, git@host:path or file:///path.")
    branch: str = "main"
    folder: str = Field("", description="The folder in the repository; empty for the top.")
    credential_kind: str = Field("", description='"", "token" or "ssh_key".')
    # Never in the repr, which an error report may show.
    secret: str = Field("", description="The token or private key; stored encrypted.", repr=False)


class LinkConfirmation(Schema):
    preview: int = Field(description="The id of the link's preview job.")
    commit: str = Field(description="The commit the preview showed (`result.link_commit`).")


def _link_refused(refusal: LinkRefused) -> Status:
    field = f"{refusal.field}: " if refusal.field else ""
    return Status(400, Message(message=f"{field}{refusal}"))


# No sensitive_variables here: django-ninja reads the signature's types from the function
# itself. The secret is left out of LinkIn's and LinkRequest's reprs, which a report shows.
@router.post("/workspaces/{slug}/jobs/link", response=QUEUED)
def queue_link(request: HttpRequest, slug: str, asked: LinkIn) -> Any:
    """Queue the preview of linking the workspace to a repository by URL (owners): its
    result lists what the link would change and gives `link_commit` to confirm. A refused
    field answers 400 naming it."""
    access = access_to(request, slug, Capability.MANAGE)
    link = LinkRequest(
        url=asked.url,
        branch=asked.branch,
        folder=asked.folder,
        credential_kind=asked.credential_kind,
        secret=asked.secret,
    )
    try:
        job = ask_link(api_user(request), access.workspace, link)
    except LinkRefused as refusal:
        return _link_refused(refusal)
    return _queued(job)


@router.post("/workspaces/{slug}/jobs/link/confirm", response=QUEUED)
def queue_link_confirmed(request: HttpRequest, slug: str, asked: LinkConfirmation) -> Any:
    """Queue the link a preview showed, at the commit it showed (owners)."""
    access = access_to(request, slug, Capability.MANAGE)
    user = api_user(request)
    preview = Job.objects.filter(pk=asked.preview, requested_by=user).first()
    if preview is None or not 0 < asked.preview <= MAX_DATABASE_INTEGER:
        return Status(400, Message(message="preview: no link preview of yours has this id."))
    try:
        job = ask_link_confirmed(user, access.workspace, preview, asked.commit)
    except LinkRefused as refusal:
        return _link_refused(refusal)
    return _queued(job)


@router.post("/workspaces/{slug}/jobs/publish", response=QUEUED)
def queue_publish(request: HttpRequest, slug: str, asked: PublishRequest) -> Any:
    """Queue committing the workspace on a branch, pushed when linked by URL (owners)."""
    access = access_to(request, slug, Capability.MANAGE)
    try:
        job = ask_publish(
            api_user(request),
            access.workspace,
            asked.branch,
            approved_only=asked.approved_only,
            skip_conflicts=asked.skip_conflicts,
            message=asked.message,
        )
    except JobRefused as refusal:
        return _refused(refusal)
    return _queued(job)


@router.post("/workspaces/{slug}/jobs/upgrade", response=QUEUED)
def queue_upgrade(request: HttpRequest, slug: str, address: Query[SuiteAddress]) -> Any:
    """Queue upgrading the suite to today's format (editors)."""
    access = access_to(request, slug, Capability.EDIT)
    suite = suite_at(access, address.suite)
    try:
        job = ask_upgrade(api_user(request), access.workspace, suite)
    except JobRefused as refusal:
        return _refused(refusal)
    return _queued(job)


@router.post("/imports", response={202: JobOut, 400: Message, 401: Message, 409: Message})
def queue_import(request: HttpRequest, archive: File[UploadedFile], name: Form[str] = "") -> Any:
    """Queue importing a workspace folder zipped as `archive` (multipart/form-data), as the
    workspace `name` (by default the .zip's name); importing into an existing workspace
    needs its owner role, as on the import page."""
    try:
        job = ask_import(api_user(request), archive, archive.size or 0, archive.name or "", name)
    except JobRefused as refusal:
        return _refused(refusal)
    return _queued(job)


@router.post("/workspaces/{slug}/imports/tests", response=QUEUED)
def queue_tests_import(
    request: HttpRequest,
    slug: str,
    form: Form[TestsImportForm],
    files: list[UploadedFile] | None = FILES,
) -> Any:
    """Queue importing other tools' tests (`files`, multipart/form-data: promptfoo, OpenAI
    Evals, chat JSONL, ShareGPT, LangSmith, Langfuse, Braintrust, Inspect, DeepEval, Claude
    Code and Codex sessions, or a .zip of them) into the suite `suite` (editors), as the
    command `import_tests` does; the job's result lists the tests made and the warnings."""
    access = access_to(request, slug, Capability.EDIT)
    files = files or []
    uploads = [(upload.name or "upload", upload, upload.size or 0) for upload in files]
    turns = {upload.name or "upload": form.turn for upload in files} if form.turn else None
    try:
        job = ask_import_tests(
            api_user(request),
            access.workspace,
            uploads,
            form.suite,
            source=form.source,
            turns=turns,
        )
    except JobRefused as refusal:
        return _refused(refusal)
    return _queued(job)


@router.get("/jobs", response={200: Page[JobOut], 400: Message, 401: Message})
def list_jobs(request: HttpRequest, page: Query[PageQuery]) -> Any:
    """The caller's jobs, newest first."""
    jobs = Job.objects.filter(requested_by=api_user(request))
    notice_dead_workers(jobs)
    try:
        rows, total, following = page_of(
            jobs.select_related("workspace"),
            ("pk",),
            lambda j: (j.pk,),
            (int,),
            page,
            descending=True,
        )
    except BadCursor as error:
        return Status(400, Message(message=str(error)))
    return Page[JobOut](items=[job_out(j) for j in rows], total=total, next=following)


def _own_job(request: HttpRequest, job_id: int) -> Job:
    """The caller's own job (404 for anyone else's), marked failed if its worker died."""
    if not 0 < job_id <= MAX_DATABASE_INTEGER:
        raise Http404(f"No job {job_id} of yours.")
    jobs = Job.objects.filter(requested_by=api_user(request), pk=job_id)
    notice_dead_workers(jobs)
    job = jobs.select_related("workspace").first()
    if job is None:
        raise Http404(f"No job {job_id} of yours.")
    return job


@router.get("/jobs/{job_id}", response={200: JobOut, 401: Message, 404: Message})
def read_job(request: HttpRequest, job_id: int) -> Any:
    """One of the caller's jobs: its state, progress, result or error."""
    return job_out(_own_job(request, job_id))


@router.post("/jobs/{job_id}/cancel", response={200: JobOut, 401: Message, 404: Message})
def cancel(request: HttpRequest, job_id: int) -> Any:
    """Cancel the job: at once when queued, at its next step when running."""
    job = _own_job(request, job_id)
    cancel_job(job)
    return job_out(job)


@router.get(
    "/jobs/{job_id}/download",
    response={200: None, 401: Message, 404: Message},
    url_name="job_download",
)
def download(request: HttpRequest, job_id: int) -> Any:
    """The .zip an export job made."""
    job = _own_job(request, job_id)
    found = finished_export(job)
    if found is None:
        raise Http404("This job made no export to download.")
    path, name = found
    return FileResponse(path.open("rb"), as_attachment=True, filename=name)
