"""Before Paste YAML replaces a case: which stored case it would replace, and what would change."""

from __future__ import annotations

from dataclasses import dataclass

from ...eval_files.case_parts import join_case
from ...eval_files.errors import EvalFileError
from ...eval_files.reading import read_case
from ...eval_files.yaml_dumper import dump_yaml
from ...eval_files.yaml_loader import load_yaml
from ...models import Case, Suite
from .editing import Difference, differences
from .list_changes import new_case_of


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
        parts = read_case(data)
    except EvalFileError:
        return None
    existing = suite.cases.filter(case_id=parts.case_id).first()
    if existing is None:
        return None
    return PastedReplacement(existing, differences(existing.document, data))


@dataclass(frozen=True)
class PasteExample:
    """What Paste YAML shows a case of `suite` looks like: the keys of its id, its criteria (or
    outcome) and its conversation as the suite spells them, and an example case in YAML."""

    id_key: str
    outcome_key: str
    input_key: str
    yaml: str


def paste_example(suite: Suite) -> PasteExample:
    """A case of `suite` as Add case would write it, filled in (docs/user-guide.md, "The
    suite page"): the hint and the example follow the suite's period."""
    parts = new_case_of(suite, "capital-of-france")
    parts.outcome = "Names Paris as the capital of France."
    parts.input_messages = [{"role": "user", "content": "What is the capital of France?"}]
    spelling = parts.spelling
    return PasteExample(
        spelling.id_key,
        spelling.outcome_key,
        ".".join(spelling.input_path),
        dump_yaml(join_case(parts)),
    )
