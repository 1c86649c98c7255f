"""A job's page (what it does, how far, its result or error), cancelling it, downloading an
export it made, and the header's status of the person's jobs (docs/jobs.md)."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from ..models import Job
from ..permissions import signed_in_user
from ..services.jobs.operations import finished_export
from ..services.jobs.queue import cancel_job, notice_dead_workers, running_jobs_of
from .htmx_request import HtmxHttpRequest

PAGE = "evals/job.html"


def _own_job(request: HtmxHttpRequest, job_pk: int) -> Job:
    """The person's own job (404 for anyone else's), marked failed if its worker died."""
    jobs = Job.objects.filter(requested_by=signed_in_user(request), pk=job_pk)
    notice_dead_workers(jobs)
    return get_object_or_404(jobs.select_related("workspace"))


@require_GET
@vary_on_headers("HX-Request")
def job_detail(request: HtmxHttpRequest, job_pk: int) -> HttpResponse:
    """The job's page; htmx polls its status block while the job is unfinished."""
    job = _own_job(request, job_pk)
    end = job.finished_at or timezone.now()
    elapsed = int((end - job.started_at).total_seconds()) if job.started_at else None
    # A done job's summary says what it did: progress its last phase left unfinished ("0 of 1
    # commits made" above "Published 1 changed case") would contradict it. A failed or
    # cancelled job shows where it stopped.
    unfinished_phase = job.state == Job.State.DONE and job.done < job.total
    show_progress = job.state == Job.State.RUNNING or (bool(job.total) and not unfinished_phase)
    context = {"job": job, "elapsed": elapsed, "show_progress": show_progress}
    return render(request, f"{PAGE}#job-status" if request.htmx else PAGE, context)


@require_POST
def job_cancel(request: HtmxHttpRequest, job_pk: int) -> HttpResponse:
    """Cancel the job: at once when queued, at its next step when running."""
    cancel_job(_own_job(request, job_pk))
    return redirect("job_detail", job_pk)


@require_GET
def job_download(request: HtmxHttpRequest, job_pk: int) -> FileResponse:
    """The .zip an export job made."""
    job = _own_job(request, job_pk)
    found = finished_export(job)
    if found is None:
        raise Http404("This job made no export to download.")
    path, name = found
    return FileResponse(path.open("rb"), as_attachment=True, filename=name)


@require_GET
def running_jobs(request: HtmxHttpRequest) -> HttpResponse:
    """The header's compact status of the person's queued and running jobs."""
    jobs = running_jobs_of(signed_in_user(request))
    return render(request, "evals/includes/running_jobs.html", {"jobs": jobs})
