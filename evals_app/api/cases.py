"""Cases: list a workspace's cases, read one case's document, replace it (never a lost update)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema, Status

from ..eval_files.errors import EvalFileError
from ..eval_files.json_keys import KeyCollision, with_keys_typed_as, with_string_keys
from ..models import Case, ReviewStatus
from ..permissions import Capability, status_of, status_seen_by
from ..services.cases.editing import CaseConflict, differences, save_case
from .auth import api_user
from .cursors import BadCursor
from .errors import WORKSPACE_ERRORS, InvalidDocument, Message, invalid_document
from .lookups import access_to, case_at, suite_at
from .pages import Page, PageQuery, page_of

router = Router(tags=["cases"])


class CaseSummary(Schema):
    """A case: its suite's path, its id, its review status and its version."""

    suite: str
    id: str
    status: ReviewStatus
    version: int


class CaseOut(CaseSummary):
    """A case and its document: the case's YAML mapping, every key in the file's order."""

    document: dict[str, Any]


class CaseFilter(PageQuery):
    suite: str | None = Field(None, description="Only the cases of the suite at this path.")
    status: ReviewStatus | None = Field(None, description="Only the cases with this review status.")


class CaseAddress(Schema):
    suite: str = Field(description="The path of the case's suite in the workspace.")
    id: str = Field(description="The case's id.")


class CaseUpdate(Schema):
    """A new document for the case, based on the case at `version` (as read)."""

    version: int
    document: dict[str, Any]


class Saved(Schema):
    """The case's version after the save, and its id (which the document may have changed)."""

    version: int
    id: str


class Difference(Schema):
    label: str
    theirs: str
    yours: str


class Conflict(Schema):
    """The case was saved since `version` was read: nothing was written; here is what differs
    between the stored case (theirs) and the document sent (yours)."""

    message: str
    version: int
    differences: list[Difference]


@router.get("/workspaces/{slug}/cases", response={200: Page[CaseSummary], **WORKSPACE_ERRORS})
def list_cases(request: HttpRequest, slug: str, filters: Query[CaseFilter]) -> Any:
    """The workspace's cases, suite by suite (by path), in their order in the suite, a page at
    a time: follow `next` until it is null (docs/api.md)."""
    access = access_to(request, slug, Capability.VIEW)
    # Keyset paging on (suite path, position), unique in a workspace; not the documents. In
    # one suite on its position alone, which the (suite, position) index gives in order, a
    # page at a time: with the path in the order too, PostgreSQL sorted the whole suite.
    one_suite = filters.suite is not None
    if filters.suite is not None:
        cases = Case.objects.filter(suite=suite_at(access, filters.suite))
    else:
        cases = Case.objects.filter(suite__workspace=access.workspace)
    # The status as the caller may see it (blind review, permissions.status_seen_by).
    cases = cases.annotate(shown_status=status_seen_by(access))
    if filters.status is not None:
        cases = cases.filter(shown_status=filters.status)
    listed = cases.select_related("suite").only(
        "case_id", "status", "version", "position", "suite__path"
    )
    rows: list[Any]  # annotated rows (shown_status)
    try:
        rows, total, following = page_of(
            listed,
            ("position",) if one_suite else ("suite__path", "position"),
            lambda case: (case.position,) if one_suite else (case.suite.path, case.position),
            (int,) if one_suite else (str, int),
            filters,
        )
    except BadCursor as error:
        return Status(400, Message(message=str(error)))
    return Page[CaseSummary](
        items=[
            CaseSummary(
                suite=case.suite.path,
                id=case.case_id,
                status=ReviewStatus(case.shown_status),
                version=case.version,
            )
            for case in rows
        ],
        total=total,
        next=following,
    )


@router.get(
    "/workspaces/{slug}/case",
    response={200: CaseOut, 422: Message, **WORKSPACE_ERRORS},
)
def read_case(request: HttpRequest, slug: str, address: Query[CaseAddress]) -> Any:
    """One case with its document. Mapping keys that YAML holds as numbers, booleans or null
    come as their JSON text (`0` → `"0"`); see docs/api.md."""
    access, case = case_at(request, slug, address.suite, address.id, Capability.VIEW)
    try:
        document = with_string_keys(case.document)
    except KeyCollision as collision:
        return Status(422, {"message": str(collision)})
    return CaseOut(
        suite=case.suite.path,
        id=case.case_id,
        status=ReviewStatus(status_of(access, case)),
        version=case.version,
        document=document,
    )


@router.put(
    "/workspaces/{slug}/case",
    response={200: Saved, 409: Conflict, 422: InvalidDocument, **WORKSPACE_ERRORS},
)
def replace_case(
    request: HttpRequest, slug: str, address: Query[CaseAddress], update: CaseUpdate
) -> Any:
    """Replace the case's document, if the case is still at `version`; validated as import
    validates a file. Keys typed in the stored case keep their type (see docs/api.md)."""
    _, case = case_at(request, slug, address.suite, address.id, Capability.EDIT)
    document = with_keys_typed_as(update.document, case.document)
    try:
        saved = save_case(case, document, update.version, api_user(request))
    except EvalFileError as error:
        return Status(422, invalid_document(error.located(case.suite.path)))
    except CaseConflict as conflict:
        current = conflict.current
        conflict_body = Conflict(
            message=(
                f"{current.case_id} was saved by someone else: it is at version "
                f"{current.version}, not {update.version}. Nothing was written."
            ),
            version=current.version,
            differences=[
                Difference(**vars(item))
                for item in differences(current.document, document, spelled=True)
            ],
        )
        return Status(409, conflict_body)
    return Saved(version=saved.version, id=saved.case_id)
