"""Importing an AgentV workspace folder (or one eval file) into the database, all or nothing.

Eval files of every period are found and read by `eval_files` (docs/formats.md); this module
formats their cases once (for the warnings and the suite page's summaries) and stores them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from ...eval_files.configs import Config, patterns_for, read_config
from ...eval_files.discovery import Discovery, FoundEvalFile, discover
from ...eval_files.errors import EvalFileError
from ...eval_files.faithful_writing import json_digest
from ...eval_files.file_trees import SYMBOLIC_LINK
from ...eval_files.json_text import encode_json
from ...eval_files.paths import PathError, check_path, shown
from ...eval_files.reading import READ_ONLY_FORMATS
from ...formatting.workspace_files import DirectoryFiles
from ...models import Case, Suite, Workspace, WorkspaceFile
from ..cases.documents import suite_row
from ..cases.positions import spread_positions
from ..cases.summaries import refresh_later
from ..jobs.progress import Progress, no_progress
from ..profiles import Summary, profile_for_file
from ..repository import git as git_repository
from ..repository.local_roots import LocalRootError, check_local_root
from ..repository.settled import ReadFiles, RecordingFiles, imported_states, settles_alone
from ..repository.three_way import Incoming, SyncReport, sync_workspace_files
from .row_inserts import insert_rows, update_rows

SUITE_BATCH = 500  # suites per INSERT
CASE_COLUMNS = ("suite", "position", "case_id", "document", "base_document")
# The columns of a case's stored summary, in the order of _summary_columns.
SUMMARY_COLUMNS = (
    "summary_current",
    "input_turns",
    "role_markers",
    "marker_reason",
    "format_warnings",
    "format_problem",
)


class ImportFailed(Exception):
    """The import was refused; nothing was written. Carries every error found."""

    def __init__(self, errors: list[EvalFileError]) -> None:
        super().__init__("\n".join(str(error) for error in errors))
        self.errors = errors


@dataclass
class ImportSummary:
    """What an import stored, the warnings found, and the YAML files it skipped (and why)."""

    workspace: Workspace
    suites: int = 0
    cases: int = 0
    files: int = 0
    warnings: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    sync: SyncReport | None = None  # how the files met an existing workspace


def import_workspace(
    path: Path,
    name: str | None = None,
    *,
    dry_run: bool = False,
    link: bool = False,
    record_checkout_folder: bool = True,
    progress: Progress = no_progress,
    then: Callable[[ImportSummary], None] | None = None,
) -> ImportSummary:
    """Import the workspace folder `path`, or the single eval file `path` with its folder as root.

    Into an existing workspace the files come in by the three-way rule (docs/sync.md), which
    `dry_run` reports without writing. With `link` (`import_evals` sets it; a .zip upload does
    not), a folder inside a git work tree links the workspace to its repository. The root
    becomes the workspace's checkout folder (docs/formatting.md, "Agent mode's absolute
    paths") unless `record_checkout_folder` is false (a temporary folder, as for a .zip).
    Raises ImportFailed, having written nothing, when any eval file is refused. `progress`
    hears of each eval file read and each suite written (docs/jobs.md); `then` is called with
    the summary inside the import's transaction once written (it may write more, or raise to
    undo it all).
    """
    if not path.exists():
        raise ImportFailed([EvalFileError("no such file or folder", file=str(path))])
    root = (path.parent if path.is_file() else path).resolve()
    found = discover(root, path.resolve() if path.is_file() else None)
    if found.errors:
        raise ImportFailed(found.errors)
    location = git_repository.locate(root) if link else None
    if location is not None:
        try:
            check_local_root(location.top)  # the operator's limit (docs/sync.md, "Remotes")
        except LocalRootError as error:
            raise ImportFailed([EvalFileError(str(error), file=str(path))]) from None
    summary = ImportSummary(workspace=Workspace(name=name or root.name), skipped=found.skipped)
    if location is not None:
        # A repository's symbolic link is not a file the app can edit and publish
        # (docs/security.md).
        found.eval_files = [
            eval_file
            for eval_file in found.eval_files
            if not _skipped_link(root, eval_file.path, summary)
        ]
    configs, stored = _configs(found, summary)
    files = DirectoryFiles(root)
    headers = {eval_file.path: eval_file.contents.header for eval_file in found.eval_files}
    case_summaries = []
    reads: dict[str, ReadFiles] = {}
    for index, eval_file in enumerate(found.eval_files):
        progress(index, len(found.eval_files), "eval files read")
        case_summaries.append(
            _format_file(eval_file, files, configs, stored, summary, headers, reads)
        )
    stored = _storable(stored, summary, root if location is not None else None)
    # These formattings read the folder; they are what the suite page shows for the stored
    # files only if every file they read is stored and nothing else can be found there.
    exact = not files.undecodable and files.found_paths() <= stored.keys()
    summary.suites = len(found.eval_files)
    summary.cases = sum(len(eval_file.contents.cases) for eval_file in found.eval_files)
    summary.files = len(stored)
    with transaction.atomic():
        existing = Workspace.objects.filter(name=summary.workspace.name).first()
        checkout_folder = root.as_posix() if record_checkout_folder else None
        if existing is not None:
            summary.workspace = existing
            incoming = Incoming(found.eval_files, stored, complete=not path.is_file())
            summary.sync = sync_workspace_files(existing, incoming, "the files", dry_run=dry_run)
            if not dry_run:
                summary.workspace = _upsert_workspace(existing.name, checkout_folder)
        elif dry_run:
            return summary
        else:
            summary.workspace = _upsert_workspace(summary.workspace.name, checkout_folder)
            _store_files(summary.workspace, stored)
            progress(0, summary.suites, "suites written")
            summaries = case_summaries if exact else None
            _store_suites(summary.workspace, found.eval_files, summaries, reads)
            progress(summary.suites, summary.suites, "suites written")
        if location is not None and not dry_run:
            _link(summary.workspace, location)
        if then is not None and not dry_run:
            then(summary)
    return summary


def _storable(
    texts: dict[str, str], summary: ImportSummary, links_in: Path | None
) -> dict[str, str]:
    """The files to store: those whose paths the path rule allows (eval_files/paths.py) and,
    in a folder of a repository (`links_in`), that are no symbolic links; the others are
    skipped, named."""
    kept: dict[str, str] = {}
    for path, text in texts.items():
        try:
            check_path(path)
        except PathError as error:
            summary.skipped.append((shown(path), error.message))
            continue
        if links_in is None or not _skipped_link(links_in, path, summary):
            kept[path] = text
    return kept


def _skipped_link(root: Path, path: str, summary: ImportSummary) -> bool:
    """Whether `path`, or a folder on the way to it, is a symbolic link (then noted skipped)."""
    parts = path.split("/")
    if any(root.joinpath(*parts[:end]).is_symlink() for end in range(1, len(parts) + 1)):
        summary.skipped.append((path, SYMBOLIC_LINK))
        return True
    return False


def _link(workspace: Workspace, location: git_repository.WorkTreeLocation) -> None:
    """Record the repository the folder is in, and its checked-out commit as the base."""
    workspace.repository_path = str(location.top)
    workspace.repository_folder = location.folder
    workspace.repository_branch = location.branch
    try:
        workspace.base_commit = git_repository.resolve_commit(location.top, "HEAD")
    except git_repository.GitError:  # a repository without a commit yet
        workspace.base_commit = ""
    workspace.save(
        update_fields=[
            "repository_path",
            "repository_folder",
            "repository_branch",
            "base_commit",
            "updated_at",
        ]
    )


def _configs(found: Discovery, summary: ImportSummary) -> tuple[dict[str, Config], dict[str, str]]:
    """Every config read (an invalid one is skipped with a warning) and the texts to store."""
    configs: dict[str, Config] = {}
    texts: dict[str, str] = {}
    for path, source in found.configs.items():
        try:
            texts[path] = source.decode("utf-8")  # BOM kept: written back as read
        except UnicodeDecodeError:
            summary.warnings.append(f"{path}: not UTF-8 text; the config is skipped")
            continue
        config = read_config(path, texts[path])
        if config.problem is not None:
            summary.warnings.append(f"{path}: invalid config, skipped: {config.problem}")
        configs[path] = config
    summary.warnings.extend(str(note) for note in found.notes)
    return configs, texts


def _format_file(
    eval_file: FoundEvalFile,
    files: DirectoryFiles,
    configs: dict[str, Config],
    stored: dict[str, str],
    summary: ImportSummary,
    headers: dict[str, dict[Any, Any]],
    reads: dict[str, ReadFiles],
) -> list[Summary]:
    """Format each case of the file (lm mode) by the profile its spelling gives it; note the
    files they read and their warnings, and (in `reads`) every path they tried to read.

    A file of cases another eval file refers to takes that file's top-level fields."""
    contents = eval_file.contents
    summary.warnings.extend(str(note.located(eval_file.path)) for note in contents.notes)
    header = headers.get(eval_file.referenced_by or "", contents.header)
    profile = profile_for_file(contents.cases_key)
    recording = RecordingFiles(files, profile.name)
    patterns = patterns_for(eval_file.path, configs)
    reading = profile.read_file(eval_file, header, recording, patterns)
    if settles_alone(eval_file):
        reads[eval_file.path] = recording.read
    summary.warnings.extend(reading.warnings)
    stored.update(reading.files)
    if contents.format in READ_ONLY_FORMATS:
        # The file itself is kept as it is: its cases are read-only (docs/formats.md).
        text = files.read_text(eval_file.path)
        if text is not None:
            stored[eval_file.path] = text
    return reading.summaries


def _upsert_workspace(name: str, checkout_folder: str | None) -> Workspace:
    workspace = Workspace.objects.select_for_update().filter(name=name).first()
    if workspace is None:
        return Workspace.objects.create(
            name=name, slug=_unique_slug(name), checkout_folder=checkout_folder or ""
        )
    if checkout_folder is not None and workspace.checkout_folder != checkout_folder:
        workspace.checkout_folder = checkout_folder
        workspace.save(update_fields=["checkout_folder", "updated_at"])
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
        [
            WorkspaceFile(workspace=workspace, path=path, text=text, base_text=text)
            for path, text in texts.items()
        ],
        update_conflicts=True,
        unique_fields=["workspace", "path"],
        update_fields=["text", "base_text"],
    )
    return len(texts)


def _store_suites(
    workspace: Workspace,
    eval_files: list[FoundEvalFile],
    summaries: list[list[Summary]] | None,
    reads: dict[str, ReadFiles],
) -> int:
    """Store the suites of a new workspace with the files' cases; returns the number of cases.

    With `summaries` (one list per file), the cases' summaries are stored too (else the suite
    page computes them). Each case's base is its document as read (docs/sync.md), and each
    suite is settled as its text (repository/settled.py; `reads`: the files its cases read).
    Suites go in with one INSERT and cases with one `executemany`: a repository holds
    thousands of small eval files, and a query or a model instance per file or case would
    cost more than reading them. The texts go in last, with what is settled of each suite,
    which needs the cases' rows: SQLite writes a row again whole when any column changes.
    """
    suites = []
    case_texts = [[encode_json(case) for case in found.contents.cases] for found in eval_files]
    for eval_file, texts in zip(eval_files, case_texts, strict=True):
        suite = suite_row(eval_file.contents, eval_file.path, eval_file.referenced_by or "")
        suite.workspace = workspace
        suite.base_document = eval_file.contents.header
        if eval_file.text is not None:  # the digest of what the text reads as, from its JSON
            suite.source_digest = json_digest(encode_json(eval_file.contents.header), texts)
        suites.append(suite)
    Suite.objects.bulk_create(suites, batch_size=SUITE_BATCH)
    rows: list[tuple[object, ...]] = []
    for index, (suite, eval_file) in enumerate(zip(suites, eval_files, strict=True)):
        contents = eval_file.contents
        file_summaries = summaries[index] if summaries is not None else None
        # GAP apart, so that inserting a case later moves no other (cases/positions.py).
        positions = spread_positions(len(contents.parts))
        for number, (text, parts) in enumerate(zip(case_texts[index], contents.parts, strict=True)):
            row: tuple[object, ...] = (suite.pk, positions[number], parts.case_id, text, text)
            if file_summaries is not None:
                row += _summary_columns(file_summaries[number])
            rows.append(row)
    names = CASE_COLUMNS + (SUMMARY_COLUMNS if summaries is not None else ())
    insert_rows(Case, names, rows)
    file_texts = {f.path: f.text for f in eval_files if f.text is not None}
    states = imported_states(workspace, file_texts, reads)
    update_rows(
        Suite,
        ("source_text", "base_source_text", "settled_stamp", "base_blob", "base_reads"),
        [
            (text, text, *states[suite.pk], suite.pk)
            for suite, text in ((suite, file_texts.get(suite.path)) for suite in suites)
            if text is not None
        ],
    )
    if summaries is None:
        refresh_later(workspace.pk)
    return len(rows)


def _summary_columns(summary: Summary) -> tuple[object, ...]:
    """The values of SUMMARY_COLUMNS for a case whose summary is `summary` (as set_summary)."""
    return (
        True,
        summary.input_turns,
        summary.role_markers,
        summary.reason,
        encode_json(list(summary.warnings)),
        summary.problem,
    )
