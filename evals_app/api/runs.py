"""Runs: run a case with AgentV in the worker, and read a run's state and results
(docs/runs.md, docs/api.md)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema, Status

from ..eval_files.json_keys import with_keys_typed_as
from ..models import Run
from ..permissions import Capability
from ..services.runs.starting import RunRefused, start_run
from .auth import api_user
from .cases import CaseAddress
from .errors import WORKSPACE_ERRORS, Message
from .lookups import access_to, case_at

router = Router(tags=["runs"])


class RunRequest(Schema):
    target: str = Field("mock", description="A target the server offers (`mock` always).")
    document: dict[str, Any] | None = Field(
        None, description="The case to run instead of the stored one (a draft); not saved."
    )


class Grader(Schema):
    name: str
    type: str
    score: float | None
    verdict: str
    reasoning: str
    assertions: list[dict[str, Any]]
    graders: list[dict[str, Any]]


class ResultOut(Schema):
    """What AgentV reported for one case."""

    id: str
    revision: int | None = Field(description="The saved revision run; null for a draft.")
    target: str
    verdict: str = Field(description="pass, fail, error or skipped")
    score: float | None
    answers: list[str] = Field(description="The model's answer of each turn.")
    graders: list[Grader]
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None
    duration_ms: int | None
    error: str = Field(description="AgentV's error, verbatim.")


class RunOut(Schema):
    """A run: queued, running (done of total tests), done with its results, failed with its
    error, or cancelled."""

    id: int
    suite: str
    target: str
    state: str
    done: int
    total: int
    error: str
    agentv_version: str
    agentv_exit_code: int | None = Field(description="How AgentV exited (null: it did not).")
    agentv_warnings: list[str] = Field(description="AgentV's warning and error lines.")
    spelling: str = Field(
        description="How the suite was spelled for this AgentV when it cannot read the "
        'suite\'s own spelling ("Run as AgentV X reads it: …"); empty otherwise.'
    )
    results: list[ResultOut]


def run_out(run: Run) -> RunOut:
    """The API's view of `run`."""
    job = run.job
    return RunOut(
        id=run.pk,
        suite=run.suite.path,
        target=run.target,
        state=job.state,
        done=job.done,
        total=job.total,
        error=job.error,
        agentv_version=run.agentv_version,
        agentv_exit_code=run.agentv_exit_code,
        agentv_warnings=run.agentv_warnings,
        spelling=run.spelling_note,
        results=[
            ResultOut(
                id=result.test_id,
                revision=result.revision_number,
                target=result.target,
                verdict=result.verdict,
                score=result.score,
                answers=result.answers,
                graders=[Grader(**grader) for grader in result.graders],
                input_tokens=result.input_tokens,
                output_tokens=result.output_tokens,
                cost_usd=result.cost_usd,
                duration_ms=result.duration_ms,
                error=result.error,
            )
            for result in run.results.all()
        ],
    )


@router.post(
    "/workspaces/{slug}/case/run",
    response={202: RunOut, 422: Message, **WORKSPACE_ERRORS},
)
def run_case(request: HttpRequest, slug: str, address: Query[CaseAddress], body: RunRequest) -> Any:
    """Run the case (or the `document` sent, unsaved) with `target` in the worker; answers at
    once with the queued run. 422 says why a run is refused (runs off, commands not allowed,
    AgentV missing or unable to read the suite's format, an unknown target); 403 for a
    reviewer or viewer."""
    access, case = case_at(request, slug, address.suite, address.id, Capability.EDIT)
    document = with_keys_typed_as(body.document, case.document) if body.document else case.document
    try:
        run = start_run(access, api_user(request), case.suite, [(case, document)], body.target)
    except RunRefused as refusal:
        return Status(422, Message(message=str(refusal)))
    run.job.refresh_from_db()
    return Status(202, run_out(run))


@router.get("/workspaces/{slug}/runs/{run_id}", response={200: RunOut, **WORKSPACE_ERRORS})
def read_run(request: HttpRequest, slug: str, run_id: int) -> Any:
    """A run's state, progress and, once done, each case's answers and grades."""
    access = access_to(request, slug, Capability.VIEW)
    if not 0 < run_id < 2**63:  # no database column holds more; not a run of anyone's
        return Status(404, Message(message=f"No run {run_id} in {access.workspace.name}."))
    run = Run.objects.filter(workspace=access.workspace, pk=run_id).select_related("job", "suite")
    found = run.first()
    if found is None:
        return Status(404, Message(message=f"No run {run_id} in {access.workspace.name}."))
    return run_out(found)
