"""A workspace's `.agentv/config.yaml` files: which suites each governs, and editing patterns.

Configs are stored files at their paths (docs/formats.md, "`.agentv/config.yaml`"); editing a
config's guideline patterns rewrites that file, keeping its other keys.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from ...eval_files.configs import Config, is_config_path, nearest_config
from ...eval_files.dialects import CONFIG_PATH, CONFIG_SCHEMA, DEFAULT_GUIDELINE_PATTERNS
from ...eval_files.errors import EvalFileError
from ...eval_files.yaml_dumper import dump_yaml
from ...eval_files.yaml_loader import load_yaml
from ...formatting.guideline_patterns import (
    PatternLimitError,
    check_pattern_limits,
    compile_patterns,
)
from ...models import ActivityRecord, Workspace, WorkspaceFile
from ..cases.summaries import mark_workspace_stale
from .activity import record_activity


class GuidelinePatternError(Exception):
    """The guideline patterns typed in cannot be used: none given, or a glob that is invalid."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ConfigPathError(Exception):
    """The config to write is neither one of the workspace's configs nor the default new one."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


@dataclass(frozen=True)
class ConfigRow:
    """A config as the workspace page shows it: its patterns (or why it is skipped) and the
    suites whose guidelines it decides. `path` is None for the default patterns."""

    path: str | None
    patterns: tuple[str, ...]
    problem: str | None
    suites: tuple[str, ...]

    @property
    def patterns_text(self) -> str:
        """The patterns one per line, as the form shows them."""
        return "\n".join(self.patterns)


def config_rows(configs: dict[str, Config], suite_paths: Iterable[str]) -> list[ConfigRow]:
    """Every config (see `workspace_configs`), with the suites (by path) it governs; the
    default patterns too, when some suite has no valid config above it."""
    governed: dict[str | None, list[str]] = {path: [] for path in configs}
    governed[None] = []
    for suite_path in suite_paths:
        config = nearest_config(suite_path, configs)
        governed[config.path if config is not None else None].append(suite_path)
    rows = [
        ConfigRow(path, config.patterns or (), config.problem, tuple(governed[path]))
        for path, config in sorted(configs.items(), key=lambda item: _depth_then_path(item[0]))
    ]
    if governed[None] or not any(config.patterns is not None for config in configs.values()):
        rows.append(ConfigRow(None, DEFAULT_GUIDELINE_PATTERNS, None, tuple(governed[None])))
    return rows


def set_guideline_patterns(
    workspace: Workspace, text: str, config_path: str = CONFIG_PATH, actor: User | None = None
) -> list[str]:
    """Write the globs of `text` (one per line, blank lines dropped) into the config file at
    `config_path`, keeping its other keys; a new file there when there is none.

    Raises ConfigPathError when `config_path` is neither the path of one of the workspace's
    configs nor CONFIG_PATH (the one new config the page offers); GuidelinePatternError when
    no glob is left, a glob is invalid, or the file there is not a config that can be rewritten.
    """
    lines = [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip()
    ]
    patterns = check_guideline_patterns(
        [pattern for _, pattern in lines], [number for number, _ in lines]
    )
    with transaction.atomic():
        existing = workspace.files.select_for_update().filter(path=config_path).first()
        # The path comes from a hidden field: only a stored config's own path (already checked
        # when it was stored) or the default one is written, never a path made up by the client.
        known = config_path == CONFIG_PATH if existing is None else is_config_path(existing.path)
        if not known:
            raise ConfigPathError(
                f"{config_path!r} is not one of this workspace's {CONFIG_PATH} files; "
                "reload the page and save the patterns in one of the configs it shows.",
                config_path,
            )
        data: dict[str, object] = {"$schema": CONFIG_SCHEMA}
        if existing is not None:
            data = _config_data(existing)
        changed = data.get("guideline_patterns") != patterns
        data["guideline_patterns"] = patterns
        if existing is None:
            WorkspaceFile.objects.create(
                workspace=workspace, path=config_path, text=dump_yaml(data)
            )
        else:
            existing.text = dump_yaml(data)
            existing.save(update_fields=["text", "updated_at"])
        if changed:  # the same patterns saved again change no case's formatting
            mark_workspace_stale(workspace)
            action = ActivityRecord.Action.PATTERNS_CHANGED
            record_activity(workspace, actor, action, config_path, ", ".join(patterns))
    return patterns


def check_guideline_patterns(patterns: Any, line_numbers: Sequence[int] = ()) -> list[str]:
    """`patterns` if it is a usable list of globs: at least one, within the limits
    (docs/formatting.md, "Guideline patterns"), each a string that compiles.

    Raises GuidelinePatternError naming the first pattern that is not, by its line in the text
    box when `line_numbers` gives each pattern's line.
    """
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        raise GuidelinePatternError('Give a list of glob strings, e.g. ["**/*.instructions.md"].')
    if not patterns:
        raise GuidelinePatternError("Give at least one pattern, e.g. **/*.instructions.md.")
    try:
        check_pattern_limits(patterns)
    except PatternLimitError as error:
        index = error.index
        where = f"Line {line_numbers[index]}" if line_numbers else f"Pattern {index + 1}"
        raise GuidelinePatternError(f"{where}: {error.message}.") from None
    for pattern in patterns:
        if not pattern.strip():
            raise GuidelinePatternError("A guideline pattern cannot be empty.")
        try:
            compile_patterns((pattern,))
        except ValueError as error:
            raise GuidelinePatternError(str(error)) from None
    return patterns


def _config_data(file: WorkspaceFile) -> dict[str, object]:
    """The mapping of a stored config whose patterns are about to be replaced."""
    try:
        data = load_yaml(file.text).data
    except EvalFileError as error:
        raise GuidelinePatternError(
            f"{file.path} is not valid YAML ({error.message}); fix it as a file first."
        ) from None
    if not isinstance(data, dict) or data.get("$schema") != CONFIG_SCHEMA:
        raise GuidelinePatternError(
            f"{file.path} is not a {CONFIG_SCHEMA} config; fix it as a file first."
        )
    return dict(data)


def _depth_then_path(path: str) -> tuple[int, str]:
    return (path.count("/"), posixpath.dirname(path))
