"""The files an eval file references inside its workspace, found by following each reference
as AgentV would (from the file's folder up to the workspace root), scripts of commands
included: what an import keeps and what a run's folder holds (docs/runs.md, "The run
folder"). A reference that leaves the workspace is noted with one message whether or not the
file exists; a file AgentV takes as its own configuration or code is never taken.
"""

from __future__ import annotations

import contextlib
import json
import posixpath
import re
import shlex
from collections.abc import Callable, Collection, Iterator
from typing import Any

from ..eval_files.errors import EvalFileError
from ..eval_files.yaml_loader import load_yaml
from .workspace_files import candidate_paths

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
# What a promptfoo sheet's `__expected` holds when it is code (AgentV 5.x reads such sheets).
SCRIPT_PREFIXES = ("javascript:", "fn:", "eval:", "python:", "file://")
ABSOLUTE = re.compile(r"^(?:[/\\~]|[A-Za-z]:)")
# Names AgentV takes as its own configuration, environment or code wherever they are found
# (a config, targets and providers files, `.env`, `agentv.config.ts`, a repository root).
CONFIG_NAME = re.compile(
    r"^(?:\.env(?:\..*)?|agentv\.config\..*|(?:targets|providers)\.ya?ml|\.git)$"
)


def referenced_files(
    eval_path: str, header: Any, cases: list[Any], read: Callable[[str], str | None]
) -> dict[str, str]:
    """Every file the eval file at `eval_path` (its `header` and `cases`) references inside
    its workspace, scripts included, read by `read` (None: no such file)."""
    walker = ReferenceWalker(read, None, follow_commands=True)
    walker.references(header, eval_path, eval_path)
    for case in cases:
        walker.references(case, eval_path, eval_path)
    return walker.files


class ReferenceWalker:
    """Follows references from eval files and the YAML files they reference, as AgentV
    would: `files` are those found (path → text), `outside` says where a reference leaves the
    workspace or names a file AgentV takes as its own; `check(document, place)` is called
    with every YAML document AgentV would read besides the suite (workspace files, grader
    includes, case files, configs)."""

    def __init__(
        self,
        read: Callable[[str], str | None],
        paths: Collection[str] | None,
        *,
        follow_commands: bool,
        check: Callable[[Any, str], None] | None = None,
    ) -> None:
        self.read = read
        self.paths = paths  # every workspace path, when they can be listed
        self.follow_commands = follow_commands  # the files of commands go too
        self.check = check
        self.files: dict[str, str] = {}
        self.outside: list[str] = []

    def _text(self, path: str) -> str | None:
        # No file has a NUL in its path (the system refuses such a name).
        return None if "\x00" in path else self.read(path)

    def check_commands(self, value: Any, place: str) -> None:
        if self.check is not None:
            self.check(value, place)

    def references(self, value: Any, referrer: str, place: str) -> None:
        """Copy every file `value` references from `referrer`'s folder, refusing those
        outside the workspace."""
        for where, key, reference in _path_values(value, place):
            self._follow(reference, referrer, where, key)
        if self.follow_commands:
            for cwd, token in _command_tokens(value):
                folder = posixpath.normpath(posixpath.join(posixpath.dirname(referrer), cwd))
                if folder.startswith("../") or folder == "..":
                    continue
                path = posixpath.normpath(posixpath.join(folder, token))
                if not path.startswith("../") and self._text(path) is not None:
                    self._add(path, "", place)

    def _follow(self, reference: str, referrer: str, where: str, key: str) -> None:
        value = reference.removeprefix("file://")
        if "{{" in value:  # AgentV fills it in from the test's variables: where it leads is open
            self.outside.append(f"{where}: `{reference}` (a path made from a template)")
            return
        if ABSOLUTE.match(value):
            self.outside.append(f"{where}: `{reference}`")
            return
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(referrer), value))
        if joined == ".." or joined.startswith("../"):
            self.outside.append(f"{where}: `{reference}`")
            return
        if not value or any(char in value for char in "*?{"):
            return  # a glob: AgentV matches it in the folder, which holds only what is written
        if key == "cwd":
            return  # a folder; the command's files are followed from it
        candidates = [joined] if ".." in value.split("/") else candidate_paths(value, referrer)
        for candidate in candidates:
            if self._text(candidate) is not None:
                self._add(candidate, key, where)
                return
            if key == "tests" and self.paths is not None:  # `tests: ./cases/`: case folders
                prefix = "" if candidate == "." else candidate + "/"
                cases = sorted(
                    path
                    for path in self.paths
                    if path.startswith(prefix) and path.endswith(YAML_SUFFIXES)
                )
                for path in cases:
                    self._add(path, key, where)
                if cases:
                    return

    def _add(self, path: str, key: str, where: str) -> None:
        if path in self.files:
            return
        if _is_config(path):
            self.outside.append(
                f"{where}: `{path}` is a file AgentV reads as its own configuration"
            )
            return
        text = self._text(path)
        if text is None:
            return
        self.files[path] = text
        if key in YAML_REFERENCE_KEYS and path.endswith(YAML_SUFFIXES):
            try:
                document = load_yaml(text).data
            except EvalFileError:
                return  # AgentV says why it cannot read it
            self.check_commands(document, path)
            self.references(document, path, path)
        elif key == "tests" and path.endswith(".jsonl"):
            for number, line in enumerate(text.splitlines(), start=1):
                with contextlib.suppress(ValueError):
                    case = json.loads(line)
                    self.check_commands(case, f"{path}:{number}")
                    self.references(case, path, f"{path}:{number}")
        elif key == "tests" and "__expected" in text:
            # A promptfoo sheet's `__expected` column may hold code AgentV 5.x runs.
            for prefix in SCRIPT_PREFIXES:
                if prefix in text:
                    self.check_commands({"command": prefix}, f"{path} › __expected")
                    break

    def configs(self, suite_path: str) -> None:
        """AgentV's project configs: each `.agentv/config.yaml` from the suite's folder up is
        checked (hooks start programs); with commands allowed, the workspace's `.agentv/`
        files (custom graders, assertions, providers, configs) go with the run."""
        folder = posixpath.dirname(suite_path)
        while True:
            for name in ("config.yaml", "config.yml"):
                path = posixpath.join(folder, ".agentv", name)
                text = self._text(path)
                if text is not None:
                    # One that does not parse holds no hook AgentV could read.
                    with contextlib.suppress(EvalFileError):
                        self.check_commands(load_yaml(text).data, path)
            if not folder:
                break
            folder = posixpath.dirname(folder)
        if self.follow_commands and self.paths is not None:
            for path in self.paths:
                parts = path.split("/")
                text = self._text(path)
                taken = ".agentv" in parts[:-1] and not CONFIG_NAME.match(parts[-1])
                if taken and text is not None:
                    self.files[path] = text


def _is_config(path: str) -> bool:
    parts = path.split("/")
    return ".agentv" in parts[:-1] or any(CONFIG_NAME.match(part) for part in parts)


def _path_values(value: Any, place: str) -> Iterator[tuple[str, str, str]]:
    """(where, key, reference) of every string that AgentV reads as a file path."""
    if isinstance(value, dict):
        kind = value.get("type")
        is_file_block = isinstance(kind, str) and kind in FILE_BLOCK_TYPES
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
