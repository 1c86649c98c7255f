"""The three-way rule: bringing files into a workspace without losing the team's work.

For every case, matched by suite path and id, the files' version is compared with the case's
base (as of the last import, sync or publish) and the app's version (docs/sync.md). The plan
is worked out first and applied in the same transaction; a dry run works it out only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from ...eval_files.case_parts import CaseParts
from ...eval_files.dialects import ID_KEYS
from ...eval_files.discovery import FoundEvalFile
from ...models import ActivityRecord, Case, Suite, Workspace, WorkspaceFile
from ..cases.documents import case_row, read_digest_of, suite_row
from ..cases.positions import FAR, spread_positions
from ..cases.summaries import mark_workspace_stale
from ..review.revisions import ensure_base_revision, record_revision
from ..review.workflow import dismiss_approval_on_edit
from ..workspaces.activity import record_activity
from .read_transactions import read_transaction
from .settled import ReadFiles, SettledSuite, check_still_settled, settle, suite_states

UNCHANGED = "unchanged"
UPDATED = "updated"
BASE_MOVED = "base moved"
CONFLICT = "conflict"
ADDED = "added"
REMOVED = "removed"
OUTCOME_KINDS = (UPDATED, BASE_MOVED, CONFLICT, ADDED, REMOVED, UNCHANGED)
REMOVED_THEIRS: dict[Any, Any] = {}  # `theirs_document` of a case the repository removed
Token = tuple[int | None, str]  # a case in the order of a suite (see _order)


@dataclass(frozen=True)
class CaseOutcome:
    """What the rule does to one case: `kind` (OUTCOME_KINDS), the app's version (`mine`,
    None for a new case) and the files' version (`theirs`, None when the files removed it)."""

    kind: str
    suite_path: str
    case_id: str
    mine: dict[Any, Any] | None = None
    theirs: dict[Any, Any] | None = None


@dataclass(frozen=True)
class Incoming:
    """What the files hold: the eval files read, and the texts of configs and referenced files.

    `complete` says the files are the whole workspace (a suite missing from them was removed);
    a single eval file is not. `skipped` names the files never read, with why (a symbolic link,
    a path the path rule refuses, a file over the size limit); `unread` are those a suite
    may be at (over the size limit), which is then not removed. `settled` are the suites known
    unchanged, not read (raising SettledChanged when one changed since), and `reads` the
    files each suite's cases read, by path (settled.py).
    """

    eval_files: list[FoundEvalFile]
    file_texts: dict[str, str]
    complete: bool = True
    unread: frozenset[str] = frozenset()
    skipped: list[tuple[str, str]] = field(default_factory=list)
    settled: dict[str, SettledSuite] = field(default_factory=dict)
    reads: dict[str, ReadFiles] = field(default_factory=dict)


@dataclass
class SyncReport:
    """Every outcome of a sync or re-import (unchanged cases are only counted)."""

    origin: str
    dry_run: bool = False
    counts: Counter[str] = field(default_factory=Counter)
    outcomes: list[CaseOutcome] = field(default_factory=list)
    suite_conflicts: list[str] = field(default_factory=list)
    file_conflicts: list[str] = field(default_factory=list)
    suites_added: list[str] = field(default_factory=list)
    suites_removed: list[str] = field(default_factory=list)
    files_changed: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, why), never read

    def add(self, outcome: CaseOutcome) -> None:
        self.counts[outcome.kind] += 1
        if outcome.kind != UNCHANGED:
            self.outcomes.append(outcome)

    @property
    def conflicts(self) -> list[CaseOutcome]:
        return [outcome for outcome in self.outcomes if outcome.kind == CONFLICT]

    @property
    def changes_anything(self) -> bool:
        return bool(
            any(self.counts[kind] for kind in OUTCOME_KINDS if kind != UNCHANGED)
            or self.suite_conflicts
            or self.suites_added
            or self.suites_removed
            or self.files_changed
        )

    def lines(self) -> list[str]:
        """One line per outcome kind with its count, then one per conflict (docs/sync.md)."""
        lines = [f"{kind}: {self.counts[kind]}" for kind in OUTCOME_KINDS]
        lines += [f"conflict: {o.suite_path} {o.case_id}" for o in self.conflicts]
        lines += [f"conflict: {path} (file header)" for path in self.suite_conflicts]
        lines += [f"conflict: {path} (file)" for path in self.file_conflicts]
        lines += [f"skipped: {path}: {why}" for path, why in self.skipped]
        return lines


def sync_workspace_files(
    workspace: Workspace,
    incoming: Incoming,
    origin: str,
    *,
    dry_run: bool = False,
    actor: User | None = None,
) -> SyncReport:
    """Apply the three-way rule to every suite, case and file of `incoming` (docs/sync.md).

    One transaction; with `dry_run` the same report is made and nothing is written. `origin`
    says where the files come from in revisions and the activity feed ("the repository at
    COMMIT", "the files").
    """
    report = SyncReport(origin=origin, dry_run=dry_run, skipped=list(incoming.skipped))
    with read_transaction() if dry_run else transaction.atomic():
        Workspace.objects.select_for_update().get(pk=workspace.pk)
        writer = _Writer(workspace, report, actor, dry_run)
        writer.files(incoming.file_texts)
        check_still_settled(workspace, incoming.settled)
        for settled in incoming.settled.values():
            report.counts[UNCHANGED] += settled.cases
        # A settled suite is not even loaded; texts only for the suites the files hold.
        rows = workspace.suites.select_for_update().defer(*Suite.TEXTS)
        if incoming.settled:
            keys = workspace.suites.values_list("pk", "path")
            rows = rows.filter(pk__in=[pk for pk, path in keys if path not in incoming.settled])
        suites = {suite.path: suite for suite in rows}
        _read_texts([suites[f.path] for f in incoming.eval_files if f.path in suites])
        untouched = suite_states(workspace).untouched if incoming.eval_files else set()
        came_in: list[int] = []
        for eval_file in incoming.eval_files:
            suite = suites.pop(eval_file.path, None)
            if suite is None:
                came_in += writer.new_suite(eval_file)
                continue
            came_in.append(suite.pk)
            if suite.path in untouched and eval_file.text == suite.base_source_text:
                # Neither side changed the file since the base: every case is unchanged,
                # which the rule would find case by case (docs/sync.md).
                for parts in eval_file.contents.parts:
                    report.add(CaseOutcome(UNCHANGED, suite.path, parts.case_id))
            else:
                writer.suite(suite, eval_file)
        if incoming.complete:
            for suite in suites.values():
                # It came from the files, which dropped it (not merely left it unread).
                if suite.base_document is not None and suite.path not in incoming.unread:
                    writer.suite(suite, None)
        if report.changes_anything and not dry_run:
            mark_workspace_stale(workspace)
        if not dry_run:
            paths = dict(workspace.suites.filter(pk__in=came_in).values_list("path", "pk"))
            reads = {paths[path]: read for path, read in incoming.reads.items() if path in paths}
            settle(workspace, came_in, reads)
    return report


class _Writer:
    """Works out the rule suite by suite, and writes its outcomes unless it is a dry run."""

    def __init__(
        self, workspace: Workspace, report: SyncReport, actor: User | None, dry_run: bool
    ) -> None:
        self.workspace = workspace
        self.report = report
        self.actor = actor
        self.dry_run = dry_run

    def files(self, texts: dict[str, str]) -> None:
        stored = {row.path: row for row in self.workspace.files.filter(path__in=list(texts))}
        for path, text in texts.items():
            row = stored.get(path)
            if row is None:
                self.report.files_changed.append(path)
                if not self.dry_run:
                    WorkspaceFile.objects.create(
                        workspace=self.workspace, path=path, text=text, base_text=text
                    )
                continue
            if text == row.base_text:
                continue
            if row.text == row.base_text or row.text == text:
                if row.text != text:
                    self.report.files_changed.append(path)
                row.text = row.base_text = text
            else:
                self.report.file_conflicts.append(path)
                continue
            if not self.dry_run:
                row.save(update_fields=["text", "base_text", "updated_at"])

    def new_suite(self, eval_file: FoundEvalFile) -> list[int]:
        """Add the suite the files add, with its cases; its primary key (none in a dry run)."""
        self.report.suites_added.append(eval_file.path)
        contents = eval_file.contents
        suite = suite_row(contents, eval_file.path, eval_file.referenced_by or "")
        suite.workspace = self.workspace
        suite.base_document = contents.header
        suite.source_text = suite.base_source_text = eval_file.text
        suite.source_digest = read_digest_of(eval_file)
        if not self.dry_run:
            suite.save()
        rows = []
        for position, document, parts in zip(
            spread_positions(len(contents.cases)), contents.cases, contents.parts, strict=True
        ):
            self.report.add(CaseOutcome(ADDED, eval_file.path, parts.case_id, theirs=document))
            row = case_row(document, position, parts)
            row.suite, row.base_document = suite, document
            rows.append(row)
        if self.dry_run:
            return []
        Case.objects.bulk_create(rows, batch_size=1000)
        return [suite.pk]

    def suite(self, suite: Suite, eval_file: FoundEvalFile | None) -> None:
        """The rule for the cases of one stored suite; `eval_file` None: the files removed it."""
        conflicts_before = len(self.report.conflicts) + len(self.report.suite_conflicts)
        if eval_file is not None:
            self._header(suite, eval_file)
        theirs = _their_cases(eval_file)
        # Each stored case is matched by the id its base has (the id it had in the files),
        # so that a case renamed in the app is still the same case.
        rows = [
            (pk, case_id, matching_id(case_id, base), document, base, theirs_before)
            for pk, case_id, document, base, theirs_before in suite.cases.select_for_update()
            .order_by("position")
            .values_list("pk", "case_id", "document", "base_document", "theirs_document")
        ]
        mine: dict[str, tuple[int, str, Any, Any]] = {}
        for pk, case_id, key, document, base, _ in rows:
            mine.setdefault(key, (pk, case_id, document, base))
        # A conflict left by an earlier sync that this one no longer finds is cleared.
        stale = {row[0] for row in rows if row[5] is not None}
        path = suite.path
        matched: set[int] = set()
        for key, (document, parts) in theirs.items():
            found = mine.get(key)
            if found is None:
                self.report.add(CaseOutcome(ADDED, path, key, theirs=document))
                continue
            pk, case_id, app, base = found
            matched.add(pk)
            if document == base:  # a conflict left here is cleared (stale)
                self.report.add(CaseOutcome(UNCHANGED, path, case_id))
                continue
            stale.discard(pk)  # each outcome below sets the repository's version itself
            if app == base:
                self.report.add(CaseOutcome(UPDATED, path, case_id, app, document))
                self._take(pk, document, parts)
            elif app == document:
                self.report.add(CaseOutcome(BASE_MOVED, path, case_id, app, document))
                self._set(pk, base_document=document, theirs_document=None)
            else:
                self.report.add(CaseOutcome(CONFLICT, path, case_id, app, document))
                self._set(pk, theirs_document=document)
        kept_here: set[int] = set()
        removed: list[tuple[int, str]] = []
        for pk, case_id, _, app, base, _ in rows:
            if pk in matched:
                continue
            if base is None:  # made in the app: the files never had it
                kept_here.add(pk)
            elif app == base:
                self.report.add(CaseOutcome(REMOVED, path, case_id, app, None))
                removed.append((pk, case_id))
                stale.discard(pk)
            else:
                self.report.add(CaseOutcome(CONFLICT, path, case_id, app, None))
                kept_here.add(pk)
                self._set(pk, theirs_document=REMOVED_THEIRS)
                stale.discard(pk)
        for pk in stale:
            self._set(pk, theirs_document=None)
        goes = eval_file is None and not kept_here and suite.document == suite.base_document
        if goes:
            self.report.suites_removed.append(suite.path)
        if self.dry_run:
            return
        self._remove(suite, removed)
        files_order: list[Token] = [
            (mine[key][0], mine[key][1]) if key in mine else (None, key) for key in theirs
        ]
        app_order: list[Token] = [(pk, case_id) for pk, case_id, *_ in rows]
        order = _order(app_order, files_order, kept_here)
        self._place(suite, order, theirs)
        if eval_file is not None:
            conflicts = len(self.report.conflicts) + len(self.report.suite_conflicts)
            self._texts(suite, eval_file, conflicted=conflicts > conflicts_before)
        if goes:
            suite.delete()
            record_activity(
                self.workspace,
                self.actor,
                ActivityRecord.Action.SUITE_DELETED,
                path,
                f"removed in {self.report.origin}",
            )

    def _texts(self, suite: Suite, eval_file: FoundEvalFile, *, conflicted: bool) -> None:
        """The file's text as it comes in: what the suite is written from from now on (the
        cases it did not change keep its bytes), and its base unless a conflict leaves bases
        that the text does not read as (docs/sync.md, "What is kept byte for byte")."""
        text = eval_file.text
        if text is None:
            return
        base = None if conflicted else text
        # A file the repository did not change keeps the text the suite is written from (an
        # upgrade's, not yet published); a changed one is written from the repository's.
        if text == suite.base_source_text and suite.source_text is not None:
            source, digest = suite.source_text, suite.source_digest
        else:
            source, digest = text, read_digest_of(eval_file)
        if (suite.source_text, suite.base_source_text, suite.source_digest) == (
            source,
            base,
            digest,
        ):
            return
        Suite.objects.filter(pk=suite.pk).update(
            source_text=source, base_source_text=base, source_digest=digest
        )
        suite.source_text, suite.base_source_text, suite.source_digest = source, base, digest

    def _header(self, suite: Suite, eval_file: FoundEvalFile) -> None:
        contents = eval_file.contents
        files, base, app = contents.header, suite.base_document, suite.document
        if files == base:
            return
        if app in (base, files):
            suite.document = suite.base_document = files
            suite.cases_key = contents.cases_key or ""
            suite.file_format = contents.format
        else:
            self.report.suite_conflicts.append(suite.path)
            return
        if not self.dry_run:
            suite.save(update_fields=["document", "base_document", "cases_key", "file_format"])

    def _take(self, pk: int, document: dict[Any, Any], parts: CaseParts) -> None:
        """The files' version as a new revision; an approval is dismissed, as by any edit."""
        if self.dry_run:
            return
        case = Case.objects.get(pk=pk)
        ensure_base_revision(case, case.document)
        case.document = case.base_document = document
        case.case_id = parts.case_id
        case.theirs_document = None
        case.version += 1
        case.summary_current = False
        case.save()
        record_revision(case, self.actor, f"from {self.report.origin}", document)
        dismiss_approval_on_edit(case, self.actor)

    def _set(self, pk: int, **values: Any) -> None:
        if not self.dry_run:
            Case.objects.filter(pk=pk).update(**values)

    def _remove(self, suite: Suite, removed: list[tuple[int, str]]) -> None:
        if not removed:
            return
        # Only the keys: the deletion collects the rows, and their documents may be large.
        Case.objects.filter(pk__in=[pk for pk, _ in removed]).only("pk").delete()
        # One insert for all: a sync that removes thousands of cases holds the database's
        # writer (SQLite) for their records too.
        detail = f"from {suite.path}: removed in {self.report.origin}"
        ActivityRecord.objects.bulk_create(
            ActivityRecord(
                workspace_id=self.workspace.pk,
                actor=self.actor,
                action=ActivityRecord.Action.CASE_DELETED,
                subject=case_id,
                detail=detail,
            )
            for _, case_id in removed
        )

    def _place(
        self,
        suite: Suite,
        order: list[Token],
        theirs: dict[str, tuple[dict[Any, Any], CaseParts]],
    ) -> None:
        """Give every kept case its place in `order` and create the new cases there."""
        positions = dict(suite.cases.values_list("pk", "position"))  # after the removals
        # Spaced as an import spaces them, so that a later insert moves no other row.
        spaced = spread_positions(len(order))
        moving = {
            pk: spaced[index]
            for index, (pk, _) in enumerate(order)
            if pk is not None and positions.get(pk) != spaced[index]
        }
        # Two steps, so that no two rows ever share a position (services/positions.py).
        for offset in (FAR, 0):
            rows = [Case(pk=pk, position=offset + place) for pk, place in moving.items()]
            Case.objects.bulk_update(rows, ["position"], batch_size=500)
        new_rows = []
        for index, (pk, case_id) in enumerate(order):
            if pk is None:
                document, parts = theirs[case_id]
                row = case_row(document, spaced[index], parts)
                row.suite, row.base_document = suite, document
                new_rows.append(row)
        Case.objects.bulk_create(new_rows, batch_size=1000)


def _read_texts(suites: list[Suite]) -> None:
    """Give `suites` (read without them) their texts, a few hundred suites a query."""
    by_pk = {suite.pk: suite for suite in suites}
    pks = list(by_pk)
    for start in range(0, len(pks), 500):
        texts = Suite.objects.filter(pk__in=pks[start : start + 500])
        for pk, *values in texts.values_list("pk", *Suite.TEXTS):
            for name, value in zip(Suite.TEXTS, values, strict=True):
                setattr(by_pk[pk], name, value)


def matching_id(case_id: str, base: dict[Any, Any] | None) -> str:
    """The id a stored case is matched by: its base's, else its own (a case made here)."""
    if base:
        for key in ID_KEYS:
            value = base.get(key)
            if isinstance(value, str):
                return value
    return case_id


def _their_cases(eval_file: FoundEvalFile | None) -> dict[str, tuple[dict[Any, Any], CaseParts]]:
    if eval_file is None:
        return {}
    contents = eval_file.contents
    return {
        parts.case_id: (document, parts)
        for document, parts in zip(contents.cases, contents.parts, strict=True)
    }


def _order(app_order: list[Token], files_order: list[Token], kept_here: set[int]) -> list[Token]:
    """The files' order, with each case only the app keeps placed after its predecessor.

    A token is (primary key, id) of a stored case, or (None, id) of a case the files add.
    """
    in_files = set(files_order)
    # Each case the app keeps follows the case before it in the app (None: the first).
    follower: dict[Token | None, Token] = {}
    predecessor: Token | None = None
    for token in app_order:
        if token[0] in kept_here:
            follower[predecessor] = token
            predecessor = token
        elif token in in_files:
            predecessor = token
    order: list[Token] = []
    for anchor in [None, *files_order]:
        if anchor is not None:
            order.append(anchor)
        while anchor in follower:  # a run of cases only the app has
            anchor = follower[anchor]
            order.append(anchor)
    return order
