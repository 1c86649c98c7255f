"""`.agentv/config.yaml` files: their guideline patterns, and the nearest one for an eval file.

There may be a config in any folder; for each eval file the nearest valid one, from the file's
folder up to the workspace root, decides (docs/formats.md, "`.agentv/config.yaml`").
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..formatting.guideline_patterns import PatternLimitError, compile_patterns
from .dialects import CONFIG_PATH, CONFIG_SCHEMA, DEFAULT_GUIDELINE_PATTERNS
from .errors import EvalFileError
from .yaml_loader import load_yaml

CONFIG_NAME = CONFIG_PATH  # `.agentv/config.yaml`, in any folder


@dataclass(frozen=True)
class Config:
    """One config file: its path, and its guideline patterns when it is valid."""

    path: str
    patterns: tuple[str, ...] | None
    problem: str | None = None

    @property
    def folder(self) -> str:
        """The folder the config governs (with every folder below it): "" for the root."""
        return posixpath.dirname(posixpath.dirname(self.path))


def is_config_path(path: str) -> bool:
    """Whether a workspace path is a `.agentv/config.yaml` file."""
    return path == CONFIG_NAME or path.endswith("/" + CONFIG_NAME)


def read_config(path: str, source: bytes | str) -> Config:
    """A config file; an invalid one has no patterns and says why (it is skipped, not refused)."""
    try:
        return Config(path, tuple(guideline_patterns(load_yaml(source).data)))
    except EvalFileError as error:
        return Config(path, None, error.message)


def guideline_patterns(data: Any) -> list[str]:
    """The patterns of a loaded config mapping; raises EvalFileError when it is not valid."""
    if not isinstance(data, dict):
        raise EvalFileError("the config is not a YAML mapping")
    # AgentV finds a config by its path and, since January 2026, reads one without `$schema`
    # too; a `$schema` that names another format still says the file is something else.
    if "$schema" in data and data["$schema"] != CONFIG_SCHEMA:
        raise EvalFileError(f"$schema must be {CONFIG_SCHEMA!r}", field="$schema")
    patterns = data.get("guideline_patterns", list(DEFAULT_GUIDELINE_PATTERNS))
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        raise EvalFileError("must be a list of glob strings", field="guideline_patterns")
    try:
        compile_patterns(tuple(patterns))  # a pattern that cannot match would fail every page
    except PatternLimitError as error:
        # Beyond the limits matching could stall every page (docs/formatting.md, "Guideline
        # patterns"): the config is skipped like any invalid one.
        raise EvalFileError(
            f"pattern {error.index + 1}: {error.message}", field="guideline_patterns"
        ) from None
    except ValueError as error:
        raise EvalFileError(str(error), field="guideline_patterns") from None
    return patterns


def nearest_config(eval_path: str, configs: Mapping[str, Config]) -> Config | None:
    """The config that governs the eval file at `eval_path`: the nearest valid one upward."""
    folder = posixpath.dirname(eval_path)
    while True:
        config = configs.get(posixpath.join(folder, CONFIG_NAME) if folder else CONFIG_NAME)
        if config is not None and config.patterns is not None:
            return config
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def patterns_for(eval_path: str, configs: Mapping[str, Config]) -> tuple[str, ...]:
    """The guideline patterns for the eval file at `eval_path` (the defaults with no config)."""
    config = nearest_config(eval_path, configs)
    return (
        config.patterns
        if config is not None and config.patterns is not None
        else (DEFAULT_GUIDELINE_PATTERNS)
    )
