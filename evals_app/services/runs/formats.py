"""Which AgentV releases read which spelling of eval file, and whether an AgentV can run a
suite's (docs/runs.md, "Which AgentV reads which format")."""

from __future__ import annotations

from dataclasses import dataclass

from ...eval_files.upgrade import TODAY_CASES_KEY, is_older_file
from ...models import Suite
from .agentv_cli import agentv_status, version_tuple

Version = tuple[int, ...]
UPGRADE = "upgrade the suite (Upgrade to today's format, on the suite page)"


@dataclass(frozen=True)
class Spelling:
    """A spelling of eval file and the releases of AgentV that read it: from `first` (None:
    no release does) to `last` (None: today's releases still do)."""

    name: str
    first: Version | None
    last: Version | None = None


# The releases are those docs/runs.md records, read from AgentV's release history: each
# spelling from the first release whose eval file reader takes it to the last one before the
# reader refused it. `cases` was AgentV's spelling for one day between two releases.
SPELLINGS: dict[str, Spelling] = {
    "evalcases": Spelling("`evalcases` lists, 2025-11 to 2026-02", (0, 2, 1), (5, 3, 0)),
    "eval_cases": Spelling("`eval_cases` lists, 2026-02", (2, 7, 1), (5, 3, 0)),
    "cases": Spelling("`cases` lists, 2026-02", None),
    "tests": Spelling("`tests` with `input`, 2026-02 to 2026-06", (2, 7, 1), (5, 0, 0)),
    "prompts": Spelling("`prompts` × `vars`, 2026-07 and later", (5, 1, 0)),
}


def spelling_of(suite: Suite) -> Spelling | None:
    """The spelling of `suite`'s file, by its list of cases and, for `tests`, whether it is
    today's (`eval_files.upgrade.is_older_file`); None for a file of cases without one."""
    if suite.cases_key == TODAY_CASES_KEY and not is_older_file(suite.document, TODAY_CASES_KEY):
        return SPELLINGS["prompts"]
    return SPELLINGS.get(suite.cases_key)


def suite_format_problem(suite: Suite) -> str:
    """Why the configured AgentV cannot run `suite`'s format ("" when it can)."""
    return format_problem(agentv_status().version, spelling_of(suite))


def format_problem(version: str, spelling: Spelling | None) -> str:
    """Why AgentV `version` cannot run a file of `spelling` ("" when it can, or when the app
    cannot tell and AgentV's own reasons will say)."""
    numbers = version_tuple(version)
    if spelling is None or numbers is None:
        return ""
    if spelling.first is None:
        return f"No AgentV release reads this suite's format ({spelling.name}): {UPGRADE}."
    if numbers < spelling.first:
        return (
            f"AgentV {version} is too old for this suite's format ({spelling.name}): it needs "
            f"{_dotted(spelling.first)} or newer — set AGENTV_COMMAND to a newer AgentV."
        )
    if spelling.last is not None and numbers > spelling.last:
        return (
            f"AgentV {version} no longer reads this suite's format ({spelling.name}); "
            f"{_dotted(spelling.last)} was the last release that did — {UPGRADE}, or point "
            "AGENTV_COMMAND at an older AgentV."
        )
    return ""


def _dotted(version: Version) -> str:
    return ".".join(map(str, version))
