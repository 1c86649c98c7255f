"""Publishing a linked workspace: one commit on a branch, written with git's plumbing only.

The commit's files under the workspace's folder are what `export_evals` writes for the
suites and files (not `formatted.jsonl`); the work tree, the index and the checked-out branch
are never touched, and a branch is only ever moved forward (docs/sync.md, "Publishing").
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import models, transaction
from django.db.models import TextField
from django.db.models.functions import Cast

from ...eval_files.dialects import referenced_file
from ...eval_files.discovery import FoundEvalFile, discover_tree
from ...eval_files.file_trees import MappingTree
from ...eval_files.json_text import decode_json
from ...models import (
    Case,
    ReviewEvent,
    ReviewStatus,
    Suite,
    Workspace,
    WorkspaceFile,
)
from ..exports.exporting import exported_texts
from ..exports.suite_texts import read_digest
from . import git as git_repository
from . import pending_publish
from .conflicts import OpenConflict, open_conflicts
from .pending_publish import PendingPublish
from .settled import SuiteStates, settle, suite_states
from .sync import SYMBOLIC_LINK_MODE, repository_of
from .three_way import matching_id

DEFAULT_MESSAGE = "Publish eval cases reviewed in agentv-web"
ATTEMPTS = 3  # publishes worked out again when the workspace changed while git ran


CHANGED, ADDED, DELETED = "changed", "added", "deleted"


class PublishRefused(Exception):
    """The publish cannot be done as asked; nothing was written. The message says why."""


class ConflictsOpen(PublishRefused):
    """Cases the publish would write are in conflict with the repository (docs/sync.md,
    "Publishing"); nothing was written."""

    def __init__(self, conflicts: list[OpenConflict]) -> None:
        self.conflicts = conflicts
        named = ", ".join(f"{c.suite_path} {c.case_id}" for c in conflicts)
        super().__init__(
            f"{len(conflicts)} case{'s' * (len(conflicts) != 1)} in conflict with the "
            f"repository: {named}. Resolve {'them' if len(conflicts) > 1 else 'it'} (Take "
            "theirs or Keep mine), or publish the other cases; nothing was changed"
        )


@dataclass(frozen=True)
class PublishedCase:
    """A case the commit changes, adds or deletes (`change`), and who approved it."""

    suite_path: str
    case_id: str
    approved_by: tuple[str, ...]
    change: str = CHANGED


@dataclass
class PublishResult:
    """The commit made (None when there was nothing to publish) and what it changed.

    `base` is the commit the publish compared the workspace with (the commit's parent), and
    `followed` the branch the workspace followed then; `behind` says the branch existed
    without the base (the publish moves it forward over the base's commits too).
    """

    branch: str
    commit: str | None = None
    created_branch: bool = False
    changed: list[PublishedCase] = field(default_factory=list)
    deleted: list[PublishedCase] = field(default_factory=list)
    held_back: list[OpenConflict] = field(default_factory=list)
    base: str = ""
    followed: str = ""
    behind: bool = False

    @property
    def compared_with(self) -> str:
        """The commit the publish compared with, in words: "abc123def456 (the base, on main)"."""
        where = f", on {self.followed}" if self.followed else ""
        return f"{self.base[:12]} (the workspace's base{where})"

    def lines(self) -> list[str]:
        """What the publish did, in sentences for the page and the command: the commit (or
        why none), what it compared with, and the cases held back (docs/sync.md)."""
        compared = f"compared with {self.compared_with}"
        if self.commit is None:
            lines = [f"Nothing to publish: {compared}, nothing differs."]
        elif self.commit == self.base:
            lines = [
                f"{self.branch} lacked the workspace's base: it moved forward to "
                f"{self.base[:12]}, which holds the changes (no new commit was needed)."
            ]
        else:
            count = len(self.changed)
            deleted = f", {len(self.deleted)} deleted" if self.deleted else ""
            lines = [
                f"Published {count} changed case{'s' * (count != 1)}{deleted} as "
                f"{self.commit[:12]} on {self.branch}, {compared}."
            ]
            if self.behind:
                lines.append(
                    f"{self.branch} was behind the base: it now holds the base's commits too."
                )
        if self.held_back:
            named = ", ".join(f"{c.suite_path} {c.case_id}" for c in self.held_back)
            lines.append(f"Held back, in conflict with the repository (its version kept): {named}.")
        return lines


def publish_workspace(
    workspace: Workspace,
    branch: str,
    *,
    approved_only: bool = False,
    skip_conflicts: bool = False,
    message: str = "",
    actor: User | None = None,
    push: Callable[[PendingPublish], None] | None = None,
) -> PublishResult:
    """Commit the workspace's suites and files on `branch` (made from the base if missing).

    With `approved_only`, a case that is not approved keeps its base content (and one made in
    the app is left out). A case in conflict is refused (ConflictsOpen), or with
    `skip_conflicts` held back: the commit keeps the base commit's version of it. Raises
    PublishRefused when the branch name is not valid or the branch moved away from the base,
    NotLinked, or GitError. The base, and the branch the workspace follows, move to the commit.
    A branch behind the base with nothing else to publish is moved forward to the base.

    The git work (blobs, trees, the commit) is done outside any transaction, so SQLite's
    write lock is not held while git runs; a short transaction then checks that nothing read
    has changed meanwhile (else the publish is done again), and commits the bases before the
    branch moves (docs/sync.md, "Publishing"). `push`, when given, runs between the two: a
    remote's push (remotes.py), raising PublishUndone, its bases undone, when it fails.
    """
    repository = repository_of(workspace)
    check_publish_branch(repository, branch)
    pending_publish.settle(workspace)
    _read_source_texts(repository, workspace)
    for _ in range(ATTEMPTS):
        prepared = _prepare(
            repository, workspace.pk, branch, approved_only, skip_conflicts, message, actor
        )
        if prepared.pending is None:
            return prepared.result
        if _record(workspace, prepared):
            break
    else:
        raise PublishRefused(
            "the workspace kept changing while publishing; nothing was published: publish again"
        )
    try:
        if push is not None:
            push(prepared.pending)
        pending_publish.place(repository, workspace.pk, prepared.pending)
    except pending_publish.PublishUndone as error:
        workspace.refresh_from_db(fields=["base_commit", "repository_branch"])
        raise PublishRefused(str(error)) from None
    workspace.base_commit, workspace.repository_branch = prepared.pending.commit, branch
    return prepared.result


def check_publish_branch(repository: Path, branch: str) -> None:
    """Raise PublishRefused unless `branch` is a branch name git accepts, as spelled, that
    the workspace can store."""
    limit = Workspace._meta.get_field("repository_branch").max_length or 0
    if len(branch) > limit:
        raise PublishRefused(
            f"not a valid branch name: {branch[:40]!r}… is {len(branch)} characters long, "
            f"more than the {limit} a branch name may have here; nothing was changed"
        )
    try:
        git_repository.check_branch_name(repository, branch)
    except git_repository.InvalidBranchName as error:
        raise PublishRefused(f"{error}; nothing was changed") from None


@dataclass
class _Prepared:
    """A publish worked out and its objects written, not yet in the database."""

    result: PublishResult
    fingerprint: str
    base: str
    pending: PendingPublish | None = None
    published: _Published | None = None
    texts: dict[str, str] = field(default_factory=dict)


def _prepare(
    repository: Path,
    workspace_pk: int,
    branch: str,
    approved_only: bool,
    skip_conflicts: bool,
    message: str,
    actor: User | None,
) -> _Prepared:
    """Read the workspace and write the commit's objects; no transaction, no branch moved."""
    workspace = Workspace.objects.get(pk=workspace_pk)
    # A suite still as of its base needs no writing, nor its cases reading (settled.py).
    states = suite_states(workspace)
    # Taken before anything else is read: the same fingerprint later means nothing read
    # changed.
    fingerprint = workspace_fingerprint(workspace_pk, states)
    base = workspace.base_commit
    tip = git_repository.branch_commit(repository, branch)
    if tip is not None and not git_repository.is_ancestor(repository, tip, base):
        raise PublishRefused(
            f"branch {branch!r} is at {tip[:12]}, which the workspace's base "
            f"{base[:12]} does not contain: someone committed there since the last sync. "
            "Sync with that branch first, or publish to another branch; nothing was changed"
        )
    result = PublishResult(
        branch=branch,
        created_branch=tip is None,
        base=base,
        followed=workspace.repository_branch,
        behind=tip not in (None, base),
    )
    prepared = _Prepared(result, fingerprint, base)
    # With approved_only, a case not approved keeps the repository's version: its conflict is
    # not in what the commit writes.
    conflicts = open_conflicts(workspace, approved_only=approved_only)
    if conflicts and not skip_conflicts:
        raise ConflictsOpen(conflicts)
    result.held_back = conflicts
    listing = _listing(repository, base, workspace.repository_folder)
    published = _Published(approved_only, _still_at_base(workspace, listing, states))
    # Each suite is written from its text as read (suite_texts.py): what did not change
    # keeps the repository's bytes, and a commit shows the team's changes, not a reformatting.
    # The others are not even loaded.
    written = workspace.suites.filter(pk__in=_written(states, published.untouched))
    texts = dict(exported_texts(workspace, published.documents_of, suites=written))
    kept = set(workspace.files.filter(base_text=models.F("text")).values_list("path", flat=True))
    changes = _changes(repository, workspace, listing, texts, kept | published.untouched, published)
    base_tree = git_repository.tree_of(repository, base)
    tree = git_repository.write_tree(repository, base_tree, changes)
    result.changed = published.changed()
    result.deleted = published.deleted
    if tree == base_tree and not result.behind:
        return prepared  # nothing differs from the base: no empty commit
    if tree == base_tree:
        # The branch lacks the base (it is behind it): moving it there publishes the changes
        # the base holds, with no empty commit.
        commit = base
    else:
        commit_message = _message(message or DEFAULT_MESSAGE, result, approved_only)
        commit = git_repository.commit_tree(
            repository, tree, base, commit_message, _identity(actor)
        )
    result.commit = commit
    prepared.pending = PendingPublish(
        commit, branch, tip, base, workspace.repository_branch, actor.pk if actor else None
    )
    prepared.published, prepared.texts = published, texts
    return prepared


def _record(workspace: Workspace, prepared: _Prepared) -> bool:
    """In one short transaction: if nothing read has changed, move the bases to the commit
    and record the publish as pending. False when something changed (nothing written)."""
    assert prepared.pending is not None and prepared.published is not None
    with transaction.atomic():
        locked = Workspace.objects.select_for_update().get(pk=workspace.pk)
        if (
            locked.base_commit != prepared.base
            or locked.pending_publish
            or workspace_fingerprint(locked.pk, suite_states(locked)) != prepared.fingerprint
        ):
            return False
        prepared.published.move_bases(locked, prepared.texts, prepared.pending)
        # The suites written read as their new base text, unless a case was held back.
        settle(locked, prepared.published.suites)
        locked.base_commit = prepared.pending.commit
        locked.repository_branch = prepared.pending.branch
        locked.pending_publish = prepared.pending.as_json()
        locked.save(
            update_fields=["base_commit", "repository_branch", "pending_publish", "updated_at"]
        )
    return True


def workspace_fingerprint(workspace_pk: int, states: SuiteStates) -> str:
    """A digest of every row a publish reads: the workspace and its files, each suite's stamp
    (settled.py), and every column of the suites not untouched and of their cases.

    A suite's stamp changes with any change the app makes to it or its cases, so an
    untouched suite's rows are not read. Every column is read as the text the database
    holds, not converted: decoding every document of a large workspace, twice a publish, was
    most of its time.
    """
    digest = hashlib.sha256()
    for pk, stamp in sorted(states.stamps.items()):
        digest.update(f"{pk}:{stamp}\n".encode())
    changed = states.changed
    digest.update(f"{sorted(changed)}\n".encode())
    # The workspace's own `updated_at` changes with the publish's own bookkeeping.
    workspace_columns = [name for name in _columns(Workspace) if name != "updated_at"]
    for rows, names in (
        (Workspace.objects.filter(pk=workspace_pk), workspace_columns),
        (Suite.objects.filter(pk__in=changed), _columns(Suite)),
        (Case.objects.filter(suite_id__in=changed), _columns(Case)),
        (WorkspaceFile.objects.filter(workspace_id=workspace_pk), _columns(WorkspaceFile)),
    ):
        as_text = {f"text_{name}": Cast(name, TextField()) for name in names}
        values = rows.order_by("pk").annotate(**as_text).values_list(*as_text)
        for row in values.iterator(chunk_size=2000):
            for value in row:
                if value is None:
                    digest.update(b"n")
                else:
                    digest.update(b"s%d:" % len(value))
                    digest.update(value.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _columns(model: type[models.Model]) -> list[str]:
    return [field.attname for field in model._meta.concrete_fields]


class _Published:
    """Chooses each case's published document, and remembers what it chose."""

    def __init__(self, approved_only: bool, untouched: set[str]) -> None:
        self.approved_only = approved_only
        self.untouched = untouched  # paths of suites as of the base: not written
        self.bases: list[tuple[int, dict[Any, Any]]] = []  # (case pk, published document)
        self._changed: list[tuple[int, str, str, str]] = []  # (pk, suite path, case id, change)
        self.suites: list[int] = []
        # The ids each suite's cases have, and had in the base, to tell a deleted case.
        self.case_ids: dict[str, set[str]] = {}
        self.deleted: list[PublishedCase] = []

    def documents_of(self, suite: Suite) -> Iterator[dict[Any, Any]] | None:
        if suite.path in self.untouched:
            return None
        rows = list(
            suite.cases.order_by("position").values_list(
                "pk", "case_id", "document", "base_document", "status", "theirs_document"
            )
        )
        approved = any(status == ReviewStatus.APPROVED for *_, status, _ in rows)
        if self.approved_only and suite.base_document is None and not approved:
            return None  # a suite made in the app, with nothing approved yet
        self.suites.append(suite.pk)
        return self._documents(suite, rows)

    def _documents(
        self, suite: Suite, rows: list[tuple[int, str, Any, Any, str, Any]]
    ) -> Iterator[dict[Any, Any]]:
        ids = self.case_ids.setdefault(suite.path, set())
        for pk, case_id, document, base, status, theirs in rows:
            ids.update((case_id, matching_id(case_id, base)))
            if theirs is not None:
                # In conflict: held back (the publish was refused otherwise), or not approved
                # in an approved-only publish. Either way the commit keeps the base commit's
                # version, the repository's side of the conflict (none: it removed the case),
                # and the case's base does not move, so the conflict stays open.
                if theirs:
                    yield theirs
                continue
            chosen = document
            if self.approved_only and status != ReviewStatus.APPROVED:
                chosen = base
            if chosen is None:
                continue
            if chosen != base:
                change = ADDED if base is None else CHANGED
                self._changed.append((pk, suite.path, case_id, change))
                self.bases.append((pk, chosen))
            yield chosen

    def note_deleted(self, eval_file: FoundEvalFile, published: bool) -> None:
        """Note the cases of the base commit's `eval_file` that the commit no longer has."""
        ids = self.case_ids.get(eval_file.path, set()) if published else set()
        for parts in eval_file.contents.parts:
            if parts.case_id not in ids:
                self.deleted.append(PublishedCase(eval_file.path, parts.case_id, (), DELETED))

    def changed(self) -> list[PublishedCase]:
        approvers: dict[int, list[str]] = {}
        events = ReviewEvent.objects.filter(
            case_id__in=[pk for pk, *_ in self._changed], action=ReviewEvent.Action.APPROVED
        ).values_list("case_id", "actor__username")
        for case_pk, username in events.order_by("created_at", "pk"):
            approvers.setdefault(case_pk, []).append(username or "a removed user")
        statuses = dict(
            Case.objects.filter(pk__in=[pk for pk, *_ in self._changed]).values_list("pk", "status")
        )
        return [
            PublishedCase(
                path,
                case_id,
                tuple(approvers.get(pk, [])[-1:]) if statuses[pk] == ReviewStatus.APPROVED else (),
                change,
            )
            for pk, path, case_id, change in self._changed
        ]

    def move_bases(
        self, workspace: Workspace, texts: dict[str, str], pending: PendingPublish
    ) -> None:
        """Each published base set, and noted in `pending` with the base it replaces."""
        before = dict(
            Case.objects.filter(pk__in=[pk for pk, _ in self.bases]).values_list(
                "pk", "base_document"
            )
        )
        for pk, document in self.bases:
            Case.objects.filter(pk=pk).update(base_document=document)
            pending.cases.append((pk, before.get(pk), document))
        for suite in Suite.objects.filter(pk__in=self.suites):
            if suite.base_document != suite.document:
                Suite.objects.filter(pk=suite.pk).update(base_document=suite.document)
                pending.suites.append((suite.pk, suite.base_document, suite.document))
            # The text published is what the suite is written from from now on, and its base.
            written = texts.get(suite.path)
            held = [suite.source_text, suite.base_source_text, suite.source_digest]
            if written is None or held[:2] == [written, written]:
                continue
            now = [written, written, read_digest(written, suite.file_format)]
            Suite.objects.filter(pk=suite.pk).update(
                source_text=now[0], base_source_text=now[1], source_digest=now[2]
            )
            pending.texts.append((suite.pk, held, now))
        files = WorkspaceFile.objects.filter(workspace=workspace)
        for pk, path, base_text in files.values_list("pk", "path", "base_text"):
            if base_text != texts.get(path, base_text):
                WorkspaceFile.objects.filter(pk=pk).update(base_text=texts[path])
                pending.files.append((pk, base_text, texts[path]))


def _changes(
    repository: Path,
    workspace: Workspace,
    listing: list[git_repository.TreeEntry],
    texts: dict[str, str],
    kept: set[str],
    published: _Published,
) -> dict[str, str | None]:
    """Blob ids by repository path: every exported file whose bytes differ from the base's,
    and None for each eval file of the base that the workspace no longer has. A file `kept`
    (a stored file or a suite unchanged since the base) keeps its bytes. The cases the commit
    deletes are noted in `published`, from the base's versions of the files it writes or
    deletes (only those are read)."""
    prefix = f"{workspace.repository_folder}/" if workspace.repository_folder else ""
    existing = {entry.name: entry.object_id for entry in listing}
    present = texts.keys() | kept
    rewritten = [path for path in published.case_ids if path in existing]
    # The listing has no sizes (_listing): those of the few files that may be read, at once.
    readable = {*rewritten, *(e.name for e in listing if e.name not in present)}
    sizes = git_repository.blob_sizes(
        repository, [entry.object_id for entry in listing if entry.name in readable]
    )
    gone = _eval_files_gone(repository, workspace, listing, present, sizes)
    changes: dict[str, str | None] = {prefix + path: None for path in gone}
    wanted = {*rewritten, *gone}
    for eval_file in _base_eval_files(repository, [e for e in listing if e.name in wanted], sizes):
        published.note_deleted(eval_file, eval_file.path in texts)
    for path, text in texts.items():
        if path in kept and path in existing:
            continue
        content = text.encode("utf-8")
        if existing.get(path) == git_repository.blob_id(content, len(existing.get(path, "0" * 40))):
            continue
        changes[prefix + path] = git_repository.write_blob(repository, content)
    return changes


def _still_at_base(
    workspace: Workspace, listing: list[git_repository.TreeEntry], states: SuiteStates
) -> set[str]:
    """The suites untouched since their base text whose base text is the base commit's
    file, byte for byte (a linked import reads the work tree, which may hold changes never
    committed: those are published). A settled suite's base blob (settled.py) says so
    without its text being read."""
    existing = {entry.name: entry.object_id for entry in listing}
    blobs = states.base_blobs
    still = {path for path in states.untouched if existing.get(path, "") == blobs.get(path)}
    # A suite settled before the repository's ids were SHA-256 is checked by its text.
    unknown = [
        path
        for path in states.untouched
        if path in existing and len(existing[path]) != len(blobs.get(path, ""))
    ]
    texts = workspace.suites.filter(path__in=unknown).values_list("path", "base_source_text")
    return still | {
        path
        for path, text in texts.iterator(chunk_size=500)
        if text is not None
        and existing[path] == git_repository.blob_id(text.encode("utf-8"), len(existing[path]))
    }


def _written(states: SuiteStates, still: set[str]) -> list[int]:
    """The primary keys of the suites not `still` as of the base: those a publish writes."""
    return [pk for pk, path in states.paths.items() if path not in still]


def _eval_files_gone(
    repository: Path,
    workspace: Workspace,
    listing: list[git_repository.TreeEntry],
    present: set[str],
    sizes: dict[str, int],
) -> list[str]:
    """The eval files (and files of cases) of the base that the workspace no longer has
    (`present`: the paths it has; `sizes`: of their blobs, by id).

    Only the base's files that the export does not write can be such files, and they are
    few: only those are read (discovered as a sync discovers a commit), not the repository.
    A file of cases is gone when a suite's base refers to it, or an eval file gone does."""
    candidates = {
        entry.name: entry
        for entry in listing
        if entry.name not in present and entry.mode != SYMBOLIC_LINK_MODE
    }
    if not candidates:
        return []

    gone = [e.path for e in _base_eval_files(repository, candidates.values(), sizes)]
    remaining = candidates.keys() - set(gone)
    # A reference names the file: only a base that holds a remaining file's name is decoded.
    names = {posixpath.basename(path) for path in remaining}
    suites = workspace.suites.exclude(base_document=None).annotate(
        text=Cast("base_document", TextField())
    )
    referenced = {
        referenced_file(path, entry)
        for path, key, text in suites.values_list("path", "cases_key", "text")
        if any(name in text for name in names)
        for entry in _references(decode_json(text), key)
    }
    return gone + sorted(referenced & remaining)


def _base_eval_files(
    repository: Path, entries: Iterable[git_repository.TreeEntry], sizes: dict[str, int]
) -> list[FoundEvalFile]:
    """The eval files among `entries` of the base commit (discovered as a sync discovers a
    commit), reading only those entries (`sizes`: of their blobs, by id)."""
    by_path = {entry.name: entry for entry in entries}
    if not by_path:
        return []

    def load(paths: list[str]) -> dict[str, bytes]:
        blobs = git_repository.read_blobs(repository, [by_path[p].object_id for p in paths])
        return {path: blobs[by_path[path].object_id] for path in paths}

    tree = MappingTree({path: sizes[entry.object_id] for path, entry in by_path.items()}, load)
    return discover_tree(tree).eval_files


def _references(header: Any, cases_key: str) -> list[str]:
    """The files of cases a top-level mapping refers to (`tests: file://…` or list entries)."""
    entries = header.get(cases_key) if isinstance(header, dict) and cases_key else None
    if isinstance(entries, str):
        return [entries]
    return [entry for entry in entries or () if isinstance(entry, str)]


def _read_source_texts(repository: Path, workspace: Workspace) -> None:
    """Give each suite that came from the repository without its text as read (imported
    before texts were kept) the text it has at the base, so that it is written from it.
    (Done before a publish reads the workspace: it changes rows the publish reads.)"""
    missing = dict(
        workspace.suites.filter(source_text=None)
        .exclude(base_document=None)
        .exclude(file_format="csv")
        .values_list("path", "pk")
    )
    if not missing:
        return
    listing = _listing(repository, workspace.base_commit, workspace.repository_folder)
    entries = {entry.name: entry.object_id for entry in listing if entry.name in missing}
    blobs = git_repository.read_blobs(repository, entries.values())
    for path, object_id in entries.items():
        try:
            text = blobs[object_id].decode("utf-8")
        except UnicodeDecodeError:
            continue  # not a file the reader took: written by the app's writer
        Suite.objects.filter(pk=missing[path], source_text=None).update(source_text=text)


def _listing(repository: Any, commit: str, folder: str) -> list[git_repository.TreeEntry]:
    """The files of `commit` under `folder`, without their sizes (git reads only trees)."""
    return git_repository.list_files(repository, commit, folder, sizes=False)


def _message(title: str, result: PublishResult, approved_only: bool) -> str:
    """The commit's message: its title, then the cases changed, added and deleted, by suite,
    and the cases held back (docs/sync.md, "Publishing")."""
    lines = [title.strip(), ""]
    if approved_only:
        lines += ["Only approved cases; the others keep the repository's version.", ""]
    cases = result.changed + result.deleted
    if not cases:
        lines += ["No case changed.", ""]
    by_suite: dict[str, list[PublishedCase]] = {}
    for case in cases:
        by_suite.setdefault(case.suite_path, []).append(case)
    for path, suite_cases in sorted(by_suite.items()):
        lines.append(f"{path}:")
        for change in (CHANGED, ADDED, DELETED):
            for case in suite_cases:
                if case.change == change:
                    lines.append(f"- {change} {case.case_id}{_approval(case)}")
        lines.append("")
    if result.held_back:
        lines.append("Held back, in conflict with the repository (its version is kept):")
        lines += [f"- {c.suite_path} {c.case_id}" for c in result.held_back]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _approval(case: PublishedCase) -> str:
    if case.change == DELETED:
        return ""
    if not case.approved_by:
        return " (not approved)"
    return f" (approved by {', '.join(case.approved_by)})"


def _identity(actor: User | None) -> tuple[str, str] | None:
    if actor is None:
        return None
    name = actor.get_full_name() or actor.get_username()
    return name, actor.email or f"{actor.get_username()}@agentv-web.invalid"
