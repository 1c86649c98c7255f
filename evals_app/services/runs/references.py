"""What a run's folder may hold: the files a suite references inside its workspace, found by
following each reference as AgentV would, and every reason the run is refused before it starts
(docs/runs.md, "The run folder"; docs/security.md, "Runs").

A reference outside the workspace is refused with one message whether or not the file exists;
a file AgentV would take as its own configuration or code is never written; with commands off,
every place that would start a program is named (commands.py holds the allow-list).
"""

from __future__ import annotations

import contextlib
import posixpath
import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...eval_files.errors import EvalFileError
from ...eval_files.yaml_loader import load_yaml
from ...formatting.workspace_files import candidate_paths
from .commands import commands_in, environment_names

# Keys whose string value AgentV reads as a file path (4.x and 5.x): judge prompt files,
# workspace files and templates, a command's folder, grader includes, files of cases.
PATH_KEYS = frozenset({"workspace", "template", "cwd", "include", "tests", "file", "path"})
# Keys whose value is a list of file paths.
PATH_LIST_KEYS = frozenset({"files", "input_files"})
# Content blocks whose `value` is a file path.
FILE_BLOCK_TYPES = frozenset({"file", "image", "input_file", "input_image", "audio", "pdf"})
# References whose file is YAML AgentV reads as more of the suite: checked like the suite.
YAML_REFERENCE_KEYS = frozenset({"workspace", "include", "tests"})
YAML_SUFFIXES = (".yaml", ".yml")
ABSOLUTE = re.compile(r"^(?:[/\\~]|[A-Za-z]:)")
# Names AgentV takes as its own configuration, environment or code wherever they are found
# (a config, targets and providers files, `.env`, `agentv.config.ts`, a repository root).
CONFIG_NAME = re.compile(
    r"^(?:\.env(?:\..*)?|agentv\.config\..*|(?:targets|providers)\.ya?ml|\.git.*)$"
)


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
    suite_text: str,
    header: Any,
    documents: list[Any],
    workspace_files: Mapping[str, str],
    *,
    allow_commands: bool,
    generation: int,
) -> RunFiles:
    """Follow every reference of the suite `header` and the cases `documents` (the suite's
    file is `suite_text` at `suite_path`) through `workspace_files`."""
    found = RunFiles()
    found.files[suite_path] = suite_text
    walker = _Walker(found, workspace_files, allow_commands, generation)
    walker.check_commands(header, "the suite")
    walker.references(header, suite_path, "the suite")
    for document in documents:
        name = str(document.get("id") or "a case") if isinstance(document, dict) else "a case"
        walker.check_commands(document, name)
        walker.references(document, suite_path, name)
    walker.configs(suite_path)
    for path, text in found.files.items():
        for name in sorted(environment_names(text)):
            found.environment.append(
                f"{path} reads the whole environment (`env`)"
                if name == "env"
                else f"{path} names the variable `{name}`"
            )
    return found


class _Walker:
    def __init__(
        self, found: RunFiles, files: Mapping[str, str], allow_commands: bool, generation: int
    ) -> None:
        self.found = found
        self.files = files
        self.allow_commands = allow_commands
        self.generation = generation

    def check_commands(self, value: Any, place: str) -> None:
        if not self.allow_commands:
            self.found.commands.extend(commands_in(value, place, self.generation))

    def references(self, value: Any, referrer: str, place: str) -> None:
        """Copy every file `value` references from `referrer`'s folder, refusing those
        outside the workspace."""
        for where, key, reference in _path_values(value, place):
            self._follow(reference, referrer, where, key)
        if self.allow_commands:
            for cwd, token in _command_tokens(value):
                folder = posixpath.normpath(posixpath.join(posixpath.dirname(referrer), cwd))
                if folder.startswith("../") or folder == "..":
                    continue
                path = posixpath.normpath(posixpath.join(folder, token))
                if path in self.files:
                    self._add(path, "", place)

    def _follow(self, reference: str, referrer: str, where: str, key: str) -> None:
        value = reference.removeprefix("file://")
        if not value or any(char in value for char in "*?{"):
            return  # a glob: AgentV matches it in the folder, which holds only what is written
        if ABSOLUTE.match(value):
            self.found.outside.append(f"{where}: `{reference}`")
            return
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(referrer), value))
        if joined == ".." or joined.startswith("../"):
            self.found.outside.append(f"{where}: `{reference}`")
            return
        if key == "cwd":
            return  # a folder; the command's files are followed from it
        candidates = [joined] if ".." in value.split("/") else candidate_paths(value, referrer)
        for candidate in candidates:
            if candidate in self.files:
                self._add(candidate, key, where)
                return
            folder_files = [path for path in self.files if path.startswith(candidate + "/")]
            if key == "tests" and folder_files:  # `tests: ./cases/`, one folder per case
                for path in sorted(folder_files):
                    if path.endswith(YAML_SUFFIXES):
                        self._add(path, key, where)
                return

    def _add(self, path: str, key: str, where: str) -> None:
        if path in self.found.files:
            return
        if _is_config(path):
            self.found.outside.append(
                f"{where}: `{path}` is a file AgentV reads as its own configuration"
            )
            return
        text = self.files[path]
        self.found.files[path] = text
        if key in YAML_REFERENCE_KEYS and path.endswith(YAML_SUFFIXES):
            try:
                document = load_yaml(text).data
            except EvalFileError:
                return  # AgentV says why it cannot read it
            self.check_commands(document, path)
            self.references(document, path, path)

    def configs(self, suite_path: str) -> None:
        """AgentV's project configs: each `.agentv/config.yaml` from the suite's folder up is
        checked (hooks start programs); with commands allowed, the workspace's `.agentv/`
        files (custom graders, assertions, providers, configs) go with the run."""
        folder = posixpath.dirname(suite_path)
        while True:
            for name in ("config.yaml", "config.yml"):
                path = posixpath.join(folder, ".agentv", name)
                if path in self.files:
                    # One that does not parse holds no hook AgentV could read.
                    with contextlib.suppress(EvalFileError):
                        self.check_commands(load_yaml(self.files[path]).data, path)
            if not folder:
                break
            folder = posixpath.dirname(folder)
        if self.allow_commands:
            for path, text in self.files.items():
                parts = path.split("/")
                name = parts[-1]
                if ".agentv" in parts[:-1] and not CONFIG_NAME.match(name):
                    self.found.files[path] = text


def _is_config(path: str) -> bool:
    parts = path.split("/")
    return ".agentv" in parts[:-1] or any(CONFIG_NAME.match(part) for part in parts)


def _path_values(value: Any, place: str) -> Iterator[tuple[str, str, str]]:
    """(where, key, reference) of every string that AgentV reads as a file path."""
    if isinstance(value, dict):
        is_file_block = value.get("type") in FILE_BLOCK_TYPES
        for key, item in value.items():
            where = f"{place} › {key}"
            if isinstance(item, str):
                if (
                    key in PATH_KEYS
                    or (is_file_block and key == "value")
                    or _is_prompt_path(key, item)
                ) or item.startswith("file://"):
                    yield where, str(key), item
            elif key in PATH_LIST_KEYS and isinstance(item, list):
                for index, entry in enumerate(item, start=1):
                    if isinstance(entry, str):
                        yield f"{where} #{index}", str(key), entry
            else:
                yield from _path_values(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value, start=1):
            if isinstance(item, str) and item.startswith("file://"):
                yield f"{place} #{index}", "", item
            else:
                yield from _path_values(item, f"{place} #{index}")


def _is_prompt_path(key: Any, value: str) -> bool:
    """A judge's `prompt` names a file when it is one word (else it is the prompt itself)."""
    return key in ("prompt", "prompt_file") and bool(value) and not any(c.isspace() for c in value)


def _command_tokens(value: Any, cwd: str = "") -> Iterator[tuple[str, str]]:
    """(cwd, word) of each word of every command or script in `value` (when commands run)."""
    if isinstance(value, dict):
        here = value.get("cwd") if isinstance(value.get("cwd"), str) else cwd
        for key, item in value.items():
            # A composite's code aggregator is a command line in its `path`.
            if key in ("command", "script", "commands", "path"):
                for word in _words(item):
                    yield str(here), word
            else:
                yield from _command_tokens(item, str(here))
    elif isinstance(value, list):
        for item in value:
            yield from _command_tokens(item, cwd)


def _words(command: Any) -> list[str]:
    if isinstance(command, str):
        try:
            return shlex.split(command)
        except ValueError:
            return command.split()
    if isinstance(command, list):
        return [word for word in command if isinstance(word, str)]
    return []
