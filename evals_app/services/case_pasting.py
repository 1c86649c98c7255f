"""Before Paste YAML replaces a case: which stored case it would replace, and what would change."""

from __future__ import annotations

from dataclasses import dataclass

from ..formatting.errors import EvalFileError
from ..formatting.eval_file import validate_case
from ..formatting.yaml_loader import load_yaml
from ..models import Case, Suite
from .case_editing import Difference, differences
from .documents import case_document, with_conversation


@dataclass(frozen=True)
class PastedReplacement:
    """The stored case a pasted snippet would replace, and the differences between them."""

    case: Case
    changes: list[Difference]


def pasted_replacement(suite: Suite, source: str) -> PastedReplacement | None:
    """The case of `suite` that pasting `source` would replace (same id), or None when the
    paste would add a case or is not a valid case (`paste_case` then says why, with its line).

    Raises EvalFileError when `source` is not YAML that can be read at all.
    """
    data = load_yaml(source).data
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    try:
        validate_case(data)
    except EvalFileError:
        return None
    existing = with_conversation(suite.cases.all()).filter(case_id=data["id"]).first()
    if existing is None:
        return None
    return PastedReplacement(existing, differences(case_document(existing), data))
