"""`GET …/formatted`: what a case formats to, as the rows `formatted.jsonl` holds for it."""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest
from ninja import Field, Query, Router

from ..formatting.profile_2025.formatter import MODES, Mode
from ..permissions import Capability
from ..services.profiles.formatted_rows import formatted_rows
from ..services.profiles.workspace_formatter import WorkspaceFormatter
from .cases import CaseAddress
from .errors import WORKSPACE_ERRORS
from .lookups import case_at

router = Router(tags=["formatting"])


class FormattedQuery(CaseAddress):
    mode: Literal["lm", "agent"] | None = Field(
        None, description="lm (files embedded) or agent (file references); both when left out."
    )
    toon: bool = Field(False, description="Add `question_toon`, as `export_evals --toon` does.")
    tokens: bool = Field(False, description="Add `tokens`, as `export_evals --tokens` does.")


@router.get(
    "/workspaces/{slug}/formatted",
    response={200: list[dict[str, Any]], **WORKSPACE_ERRORS},
)
def formatted_case(
    request: HttpRequest, slug: str, query: Query[FormattedQuery]
) -> list[dict[str, Any]]:
    """The case's rows of `formatted.jsonl` (docs/user-guide.md, "Command line"): one per mode, `lm`
    first."""
    access, case = case_at(request, slug, query.suite, query.id, Capability.VIEW)
    formatter = WorkspaceFormatter(access.workspace)
    modes: tuple[Mode, ...] = (query.mode,) if query.mode else MODES
    return formatted_rows(
        formatter,
        case.suite,
        case.document,
        modes,
        toon=query.toon,
        single=True,
        tokens=query.tokens,
    )
