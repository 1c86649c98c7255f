"""Which AgentV releases read which format of eval file, and whether an AgentV reads a
suite's as it is (else a run hands it a spelling it reads, `spellings.py`; docs/runs.md, "When
AgentV cannot read a suite's spelling")."""

from __future__ import annotations

from dataclasses import dataclass

from ...eval_files.upgrade import TODAY_CASES_KEY, is_older_file
from ...models import Suite
from .agentv_cli import version_tuple

Version = tuple[int, ...]
UPGRADE = "upgrade the suite (Upgrade to today's format, on the suite page)"


@dataclass(frozen=True)
class EvalFormat:
    """A format of eval file (a period's spelling) and the AgentV releases that read it: from
    `first` (None: no release does) to `last` (None: today's releases still do)."""

    name: str
    first: Version | None
    last: Version | None = None


# The releases are those docs/runs.md records, read from AgentV's release history: each format
# from the first release whose eval file reader takes it to the last one before the reader
# refused it. `cases` was AgentV's spelling for one day between two releases.
EVAL_FORMATS: dict[str, EvalFormat] = {
    "evalcases": EvalFormat("`evalcases` lists, 2025-11 to 2026-02", (0, 2, 1), (5, 3, 0)),
    "eval_cases": EvalFormat("`eval_cases` lists, 2026-02", (2, 7, 1), (5, 3, 0)),
    "cases": EvalFormat("`cases` lists, 2026-02", None),
    "tests": EvalFormat("`tests` with `input`, 2026-02 to 2026-06", (2, 7, 1), (5, 0, 0)),
    "prompts": EvalFormat("`prompts` × `vars`, 2026-07 and later", (5, 1, 0)),
}


def eval_format_of(suite: Suite) -> EvalFormat | None:
    """The format of `suite`'s file, by its list of cases and, for `tests`, whether it is
    today's (`eval_files.upgrade.is_older_file`); None for a file of cases without one."""
    if suite.cases_key == TODAY_CASES_KEY and not is_older_file(suite.document, TODAY_CASES_KEY):
        return EVAL_FORMATS["prompts"]
    return EVAL_FORMATS.get(suite.cases_key)


def format_problem(version: str, eval_format: EvalFormat | None) -> str:
    """Why AgentV `version` cannot run a file of `eval_format` ("" when it can, or when the
    app cannot tell and AgentV's own reasons will say)."""
    numbers = version_tuple(version)
    if eval_format is None or numbers is None:
        return ""
    first, last, name = eval_format.first, eval_format.last, eval_format.name
    if first is None:
        return f"No AgentV release reads this suite's format ({name}): {UPGRADE}."
    if numbers < first:
        return (
            f"AgentV {version} is too old for this suite's format ({name}): it needs "
            f"{_dotted(first)} or newer — set AGENTV_COMMAND to a newer AgentV."
        )
    if last is not None and numbers > last:
        return (
            f"AgentV {version} no longer reads this suite's format ({name}); {_dotted(last)} "
            f"was the last release that did — {UPGRADE}, or point AGENTV_COMMAND at an older "
            "AgentV."
        )
    return ""


def _dotted(version: Version) -> str:
    return ".".join(map(str, version))
