"""What a run's folder may hold, and every reason the run is refused before it starts: a
reference outside the workspace, a place that would start a program with commands off
(commands.py holds the allow-list), the server's environment named (docs/runs.md, "The run
folder"; docs/security.md, "Runs")."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...formatting.suite_references import ReferenceWalker
from .commands import commands_in, environment_names


@dataclass
class RunFiles:
    """The files a run's folder holds (workspace path → text) and why it cannot run."""

    files: dict[str, str] = field(default_factory=dict)
    outside: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    environment: list[str] = field(default_factory=list)

    def refusal(self) -> str:
        """Every reason, in words ("" when the run may start)."""
        reasons = []
        if self.outside:
            reasons.append(
                "A run reads only files inside the workspace; these references leave it: "
                + "; ".join(self.outside)
                + "."
            )
        if self.commands:
            reasons.append(
                "This run would execute commands on the server, which the operator has not "
                f"allowed (AGENTV_RUNS_ALLOW_COMMANDS): {'; '.join(self.commands)}."
            )
        if self.environment:
            reasons.append(
                "A run never reads the server's environment: "
                + "; ".join(self.environment)
                + ". Secrets belong in the operator's targets file."
            )
        return "\n".join(reasons)


def run_files(
    suite_path: str,
    suite_text: str | None,
    header: Any,
    documents: list[Any],
    workspace_files: Mapping[str, str],
    *,
    cases_path: str = "",
    allow_commands: bool,
) -> RunFiles:
    """Follow every reference of the suite `header` and the cases `documents` (the suite's
    file is `suite_text` at `suite_path`, None when only checking; the cases' is `cases_path`
    when another file holds them) through `workspace_files`."""
    found = RunFiles()

    def check(document: Any, place: str) -> None:
        if not allow_commands:
            found.commands.extend(commands_in(document, place))

    walker = ReferenceWalker(
        workspace_files.get,
        workspace_files.keys(),
        follow_commands=allow_commands,
        check=check,
    )
    if suite_text is not None:
        walker.files[suite_path] = suite_text
    check(header, "the suite")
    walker.references(header, suite_path, "the suite")
    for document in documents:
        name = str(document.get("id") or "a case") if isinstance(document, dict) else "a case"
        check(document, name)
        walker.references(document, cases_path or suite_path, name)
    walker.configs(suite_path)
    found.files = walker.files
    # A file of cases is followed from the suite and its cases are checked one by one too.
    found.outside = list(dict.fromkeys(walker.outside))
    found.commands = list(dict.fromkeys(found.commands))
    # AgentV puts variables into the suite's values (not its comments); into any text of the
    # files it reads.
    texts = {path: text for path, text in found.files.items() if path != suite_path}
    texts = {suite_path: "\n".join(_strings([header, documents])), **texts}
    for path, text in texts.items():
        for variable in sorted(environment_names(text)):
            found.environment.append(
                f"{path} reads the whole environment (`env`)"
                if variable == "env"
                else f"{path} names the variable `{variable}`"
            )
    return found


def _strings(value: Any) -> Iterator[str]:
    """Every key and string value in `value`."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
