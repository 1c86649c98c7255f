"""Importing an AgentV workspace folder (or one eval file) into the database, all or nothing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.utils.text import slugify

from ..formatting.engine import format_case
from ..formatting.errors import EvalFileError
from ..formatting.eval_file import (
    ParsedEvalFile,
    looks_like_eval_file,
    parse_guideline_patterns,
    validate_eval_document,
)
from ..formatting.guideline_patterns import compile_patterns
from ..formatting.schema import EvalCase, Execution
from ..formatting.workspace_files import DirectoryFiles, FileSource, resolve_file
from ..formatting.yaml_loader import MAX_BYTES, load_yaml
from ..models import Case, Suite, Workspace, WorkspaceFile
from .case_summaries import Summary, mark_workspace_stale, set_summary, summary_of
from .documents import case_row, store_messages, suite_row

CONFIG_PATH = ".agentv/config.yaml"
YAML_SUFFIXES = (".yaml", ".yml")
OUTSIDE_LINK = "is a symbolic link to a file outside the workspace; it is not read"
CASE_BATCH = 2000  # cases per INSERT where the database allows (SQLite: fewer, see bulk_create)


class ImportFailed(Exception):
    """The import was refused; nothing was written. Carries every error found."""

    def __init__(self, errors: list[EvalFileError]) -> None:
        super().__init__("\n".join(str(error) for error in errors))
        self.errors = errors


@dataclass
class ImportSummary:
    """What an import stored, and the formatting warnings of the imported cases."""

    workspace: Workspace
    suites: int = 0
    cases: int = 0
    files: int = 0
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _EvalFileOnDisk:
    path: str  # relative to the workspace root, POSIX
    parsed: ParsedEvalFile


def import_workspace(path: Path, name: str | None = None) -> ImportSummary:
    """Import the workspace folder `path`, or the single eval file `path` with its folder as root.

    Suites at the same paths as imported ones are replaced; other suites are kept.
    Raises ImportFailed, having written nothing, when any file is invalid.
    """
    if not path.exists():
        raise ImportFailed([EvalFileError("no such file or folder", file=str(path))])
    root = path.parent if path.is_file() else path
    root = root.resolve()
    files = DirectoryFiles(root)
    patterns, config = _read_config(root)
    eval_files = _read_eval_files(path.resolve(), root)
    summary = ImportSummary(workspace=Workspace(name=name or root.name))
    stored: dict[str, str] = {}
    case_summaries: list[list[Summary]] = []
    for eval_file in eval_files:
        file_execution = eval_file.parsed.model.execution
        case_summaries.append([])
        for case in eval_file.parsed.model.evalcases:
            stored.update(_referenced_files(case, eval_file.path, files, file_execution))
            formatted = format_case(
                case,
                eval_path=eval_file.path,
                files=files,
                guideline_patterns=patterns,
                file_execution=file_execution,
            )
            summary.warnings.extend(
                f"{eval_file.path}: {warning.message}" for warning in formatted.warnings
            )
            case_summaries[-1].append(summary_of(len(case.input_messages), formatted))
    # These formattings read the folder; they are what the suite page shows for the stored
    # files only if every file they read is stored and nothing else can be found there.
    exact = not files.undecodable and files.found_paths() <= stored.keys()
    with transaction.atomic():
        existed = Workspace.objects.filter(name=summary.workspace.name).exists()
        summary.workspace = _upsert_workspace(summary.workspace.name, patterns, config)
        summary.files = _store_files(summary.workspace, stored)
        for eval_file, summaries in zip(eval_files, case_summaries, strict=True):
            summary.cases += _store_suite(
                summary.workspace, eval_file, summaries if exact and not existed else None
            )
        summary.suites = len(eval_files)
        if existed:  # its other suites may format differently with the new files and patterns
            mark_workspace_stale(summary.workspace)
    return summary


def _read_config(root: Path) -> tuple[list[str], dict]:
    config_file = root / CONFIG_PATH
    if config_file.is_file() and not _inside(config_file, root):
        raise ImportFailed([EvalFileError(OUTSIDE_LINK, file=CONFIG_PATH)])
    source = config_file.read_bytes() if config_file.is_file() else None
    try:
        patterns, config = parse_guideline_patterns(source)
    except EvalFileError as error:
        raise ImportFailed([error.located(CONFIG_PATH)]) from None
    try:
        compile_patterns(tuple(patterns))  # a pattern that cannot match would fail every page
    except ValueError as error:
        invalid = EvalFileError(str(error), file=CONFIG_PATH, field="guideline_patterns")
        raise ImportFailed([invalid]) from None
    return patterns, config


def _read_eval_files(path: Path, root: Path) -> list[_EvalFileOnDisk]:
    candidates = [path] if path.is_file() else sorted(_yaml_files(root))
    errors: list[EvalFileError] = []
    found: list[_EvalFileOnDisk] = []
    for candidate in candidates:
        relative = candidate.relative_to(root).as_posix()
        try:
            if not _inside(candidate, root):
                raise EvalFileError(OUTSIDE_LINK)
            if candidate.stat().st_size > MAX_BYTES:
                raise EvalFileError(f"file is larger than the limit of {MAX_BYTES // 2**20} MiB")
            source = candidate.read_bytes()
            data = load_yaml(source).data
            if path.is_file() or looks_like_eval_file(data):
                found.append(_EvalFileOnDisk(relative, validate_eval_document(data, source)))
        except EvalFileError as error:
            errors.append(error.located(relative))
        except OSError as error:
            errors.append(EvalFileError(f"cannot be read: {error.strerror}", file=relative))
    if not errors and not found:
        errors.append(
            EvalFileError(
                "no eval file found (a YAML file with `evalcases:` or `$schema: agentv-eval-v2`)",
                file=str(path),
            )
        )
    if errors:
        raise ImportFailed(errors)
    return found


def _inside(path: Path, root: Path) -> bool:
    """Whether `path`, symbolic links followed, is in the (resolved) workspace root."""
    return path.resolve().is_relative_to(root)


def _yaml_files(root: Path) -> Iterator[Path]:
    for candidate in root.rglob("*"):
        if candidate.suffix not in YAML_SUFFIXES or not candidate.is_file():
            continue
        parts = candidate.relative_to(root).parts
        if parts[0] in (".agentv", ".git"):
            continue
        yield candidate


def _referenced_files(
    case: EvalCase, eval_path: str, files: FileSource, file_execution: Execution | None
) -> dict[str, str]:
    """Every workspace file the case needs for formatting: file blocks and judge prompts."""
    values = [
        value
        for message in [*case.input_messages, *(case.expected_messages or [])]
        for block_type, value in message.block_values()
        if block_type == "file"
    ]
    for execution in (case.execution, file_execution):
        for evaluator in (execution.evaluators or []) if execution else []:
            if evaluator.type == "llm_judge" and evaluator.prompt:
                values.append(evaluator.prompt)
    found: dict[str, str] = {}
    for value in values:
        resolution = resolve_file(value, eval_path, files)
        if resolution.file is not None:
            found[resolution.file.path] = resolution.file.text
    return found


def _upsert_workspace(name: str, patterns: list[str], config: dict) -> Workspace:
    workspace = Workspace.objects.select_for_update().filter(name=name).first()
    if workspace is None:
        workspace = Workspace(name=name, slug=_unique_slug(name))
    workspace.guideline_patterns = patterns
    workspace.config = config
    workspace.save()
    return workspace


def _unique_slug(name: str) -> str:
    base = slugify(name) or "workspace"
    slug, number = base, 1
    while Workspace.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def _store_files(workspace: Workspace, texts: dict[str, str]) -> int:
    WorkspaceFile.objects.bulk_create(
        [WorkspaceFile(workspace=workspace, path=path, text=text) for path, text in texts.items()],
        update_conflicts=True,
        unique_fields=["workspace", "path"],
        update_fields=["text"],
    )
    return len(texts)


def _store_suite(
    workspace: Workspace, eval_file: _EvalFileOnDisk, summaries: list[Summary] | None
) -> int:
    """Replace the suite at this path with the file's cases; returns the number of cases.

    With `summaries`, the cases' summaries are stored too (else the suite page computes them).
    """
    Suite.objects.filter(workspace=workspace, path=eval_file.path).delete()
    suite = suite_row(eval_file.parsed.data, eval_file.path)
    suite.workspace = workspace
    suite.save()
    cases_data = eval_file.parsed.data["evalcases"]
    rows = []
    for position, data in enumerate(cases_data):
        case = case_row(data, position)
        case.suite = suite
        if summaries is not None:
            set_summary(case, summaries[position])
        rows.append(case)
    cases = Case.objects.bulk_create(rows, batch_size=CASE_BATCH)
    store_messages(zip(cases, cases_data, strict=True))
    return len(cases)
