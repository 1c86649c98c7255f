"""Stored rows and the eval files they come from: a case row holds its document as written.

The parts of a case (its conversation, outcome, evaluators) are read from and written into the
document by `eval_files.case_parts`, the one mapping every service uses.
"""

from __future__ import annotations

from typing import Any

from ...eval_files.case_parts import CaseParts, split_case
from ...eval_files.discovery import FoundEvalFile
from ...eval_files.faithful_writing import documents_digest
from ...eval_files.reading import EvalFileContents
from ...models import Case, Suite
from ..profiles import profile_for_file


def case_row(document: dict[Any, Any], position: int, parts: CaseParts | None = None) -> Case:
    """An unsaved Case row for a validated case mapping."""
    parts = parts if parts is not None else split_case(document)
    return Case(position=position, case_id=parts.case_id, document=document)


def read_digest_of(eval_file: FoundEvalFile) -> str:
    """The digest of what the file's text reads as: its documents ("" without a text)."""
    if eval_file.text is None:
        return ""
    return documents_digest(eval_file.contents.header, eval_file.contents.cases)


def suite_row(contents: EvalFileContents, path: str, referenced_by: str = "") -> Suite:
    """An unsaved Suite row for an eval file that was read."""
    return Suite(
        path=path,
        document=contents.header,
        cases_key=contents.cases_key or "",
        file_format=contents.format,
        profile=profile_for_file(contents.cases_key).name,
        referenced_by=referenced_by,
    )
