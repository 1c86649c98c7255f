"""Reading a workspace folder for an import: its configs, each eval file formatted once (for the
warnings, the files its cases read and the suite page's summaries), and the files to store.

Both kinds of import read this way (docs/formats.md): into a new workspace in batches
(batches.py), into an existing one by the three-way rule (folders.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...eval_files.configs import Config, patterns_for, read_config
from ...eval_files.discovery import FoundEvalFile
from ...eval_files.errors import EvalFileError
from ...eval_files.file_trees import SYMBOLIC_LINK
from ...eval_files.paths import PathError, check_path, shown
from ...eval_files.reading import READ_ONLY_FORMATS
from ...formatting.suite_references import referenced_files
from ...formatting.workspace_files import DirectoryFiles, UndecodableFileError
from ...models import Workspace
from ..profiles import Summary, profile_for_file
from ..repository import git as git_repository
from ..repository.local_roots import LocalRootError, check_local_root
from ..repository.settled import ReadFiles, RecordingFiles, settles_alone
from ..repository.three_way import SyncReport


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


@dataclass
class FolderReading:
    """What formatting the eval files of the folder `files` found besides their cases: the
    files to store (configs, and what cases read), the warnings (`file_warnings`: those of the
    eval files, in order) and, by suite path, the files each suite's cases tried to read."""

    files: DirectoryFiles
    configs: dict[str, Config] = field(default_factory=dict)
    stored: dict[str, str] = field(default_factory=dict)
    file_warnings: list[str] = field(default_factory=list)
    reads: dict[str, ReadFiles] = field(default_factory=dict)
    # What the eval files reference (scripts, expected_output files, …), and the eval files
    # read: a file of cases that a suite references is a suite, never a stored file too.
    referenced: dict[str, str] = field(default_factory=dict)
    eval_paths: set[str] = field(default_factory=set)

    def read_configs(self, sources: dict[str, bytes], summary: ImportSummary) -> None:
        """Read every config (an invalid one is skipped with a warning) and keep its text."""
        for path, source in sources.items():
            try:
                text = source.decode("utf-8")  # BOM kept: written back as read
            except UnicodeDecodeError:
                summary.warnings.append(f"{path}: not UTF-8 text; the config is skipped")
                continue
            if "\x00" in text:  # no database column stores NUL
                summary.warnings.append(f"{path}: holds NUL characters; the config is skipped")
                continue
            self.stored[path] = text
            config = read_config(path, self.stored[path])
            if config.problem is not None:
                summary.warnings.append(f"{path}: invalid config, skipped: {config.problem}")
            self.configs[path] = config

    def format_file(self, eval_file: FoundEvalFile, header: dict[Any, Any]) -> list[Summary]:
        """Format each case of the file (lm mode) by the profile its spelling gives it, with
        the top-level fields `header` (a file of cases takes those of the eval file that
        refers to it); note the files they read, their warnings and every path they tried."""
        contents = eval_file.contents
        self.file_warnings.extend(str(note.located(eval_file.path)) for note in contents.notes)
        profile = profile_for_file(contents.cases_key)
        recording = RecordingFiles(self.files, profile.name)
        patterns = patterns_for(eval_file.path, self.configs)
        reading = profile.read_file(eval_file, header, recording, patterns)
        if settles_alone(eval_file):
            self.reads[eval_file.path] = recording.read
        self.file_warnings.extend(reading.warnings)
        self.stored.update(reading.files)
        # Scripts of graders, expected_output files, workspace files: a run takes them
        # from the stored files (docs/runs.md, "The run folder").
        self.referenced.update(
            referenced_files(eval_file.path, header, contents.cases, self._readable_text)
        )
        self.eval_paths.add(eval_file.path)
        if contents.format in READ_ONLY_FORMATS:
            # The file itself is kept as it is: its cases are read-only (docs/formats.md).
            text = self.files.read_text(eval_file.path)
            if text is not None:
                self.stored[eval_file.path] = text
        return reading.summaries

    def _readable_text(self, path: str) -> str | None:
        try:
            return self.files.read_text(path)
        except UndecodableFileError:
            return None  # formatting warns about it where a case reads it

    def exact(self) -> bool:
        """Whether the formattings are what the suite page shows for the stored files: only if
        every file they read is stored and nothing else can be found there."""
        stored = self.stored.keys() | (self.referenced.keys() - self.eval_paths)
        return not self.files.undecodable and self.files.found_paths() <= stored

    def storable(self, summary: ImportSummary, links_in: Path | None) -> dict[str, str]:
        """The files to store: those whose paths the path rule allows (eval_files/paths.py)
        and, in a folder of a repository (`links_in`), that are no symbolic links; the others
        are skipped, named."""
        kept: dict[str, str] = {}
        referenced = {
            path: text for path, text in self.referenced.items() if path not in self.eval_paths
        }
        for path, text in {**referenced, **self.stored}.items():
            try:
                check_path(path)
            except PathError as error:
                summary.skipped.append((shown(path), error.message))
                continue
            if links_in is None or not skipped_link(links_in, path, summary):
                kept[path] = text
        return kept


def skipped_link(root: Path, path: str, summary: ImportSummary) -> bool:
    """Whether `path`, or a folder on the way to it, is a symbolic link (then noted skipped)."""
    parts = path.split("/")
    if any(root.joinpath(*parts[:end]).is_symlink() for end in range(1, len(parts) + 1)):
        summary.skipped.append((path, SYMBOLIC_LINK))
        return True
    return False


def check_location(location: git_repository.WorkTreeLocation | None, path: Path) -> None:
    """Refuse a repository outside the operator's limit (docs/sync.md, "Remotes")."""
    if location is not None:
        try:
            check_local_root(location.top)
        except LocalRootError as error:
            raise ImportFailed([EvalFileError(str(error), file=str(path))]) from None


def link_repository(workspace: Workspace, location: git_repository.WorkTreeLocation) -> None:
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
