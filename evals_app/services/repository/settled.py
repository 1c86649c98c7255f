"""Which suites are still as the last import, sync or publish left them, told without reading
their cases (docs/sync.md, "What a check and a publish read").

When a suite's base text is set and its rows are found to read as that text, the suite keeps a
*stamp*: a digest of its row's id, path, profile and time, and of each case's id, place and
time. Every change the app makes to a suite or its cases saves a row (`updated_at`), adds or
deletes one, or moves one, and each of these changes the stamp. So a suite whose stamp is still
the one kept reads as its base text, which a few small columns tell; any other suite is
checked against its text (`untouched_since_base`), as before stamps were kept.

With the stamp the suite keeps git's blob id of its base text, and the files its cases read
(found by formatting them), each with its blob id: a sync check that finds the same blob at
the suite's path and at each of those paths knows the suite and its files unchanged without
reading them.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import TextField
from django.db.models.functions import Cast

from ...eval_files.discovery import FoundEvalFile
from ...eval_files.reading import READ_ONLY_FORMATS
from ...formatting.workspace_files import FileSource, UndecodableFileError
from ...models import Case, Suite, Workspace
from ..exports.suite_texts import untouched_since_base
from ..imports.row_inserts import json_text, update_rows
from .git import blob_id


@dataclass
class ReadFiles:
    """The files formatting a suite's cases tried to read, each with git's blob id of what it
    found (None: nothing there); `complete` is false when one was not UTF-8 text."""

    profile: str
    files: dict[str, str | None] = field(default_factory=dict)
    complete: bool = True

    def as_json(self, base_blob: str) -> dict[str, Any] | None:
        """What `Suite.base_reads` keeps, for the suite's base text `base_blob`."""
        if not self.complete:
            return None
        return {"profile": self.profile, "blob": base_blob, "files": self.files}


class RecordingFiles:
    """A file source that notes every path read through it, found or not (`ReadFiles`)."""

    def __init__(self, files: FileSource, profile: str) -> None:
        self.files = files
        self.read = ReadFiles(profile)

    def read_text(self, path: str) -> str | None:
        key = posixpath.normpath(path)
        try:
            text = self.files.read_text(path)
        except UndecodableFileError:
            self.read.complete = False
            raise
        if key not in self.read.files:  # the same file is read by many of a suite's cases
            self.read.files[key] = None if text is None else blob_id(text.encode("utf-8"))
        return text


def settles_alone(eval_file: FoundEvalFile) -> bool:
    """Whether the files the cases of `eval_file` read follow from its own text alone, so
    that they can be kept with it: it is not a file of cases another refers to (its cases
    take that file's keys), refers to none, and is not read-only (its file is also a stored
    file)."""
    contents = eval_file.contents
    return (
        eval_file.referenced_by is None
        and not contents.references
        and contents.format not in READ_ONLY_FORMATS
    )


@dataclass(frozen=True)
class SettledSuite:
    """A suite a sync need not read: its stamp when found so, and its number of cases."""

    stamp: str
    cases: int


class SettledChanged(Exception):
    """A suite found settled changed before the sync took the workspace's lock."""


def settled_files(workspace: Workspace, blobs: Mapping[str, str]) -> dict[str, SettledSuite]:
    """The suites a sync need not read, by path, with their stamps and cases: at a commit whose
    files are `blobs` (path → blob id, the files a sync may read), each has its base blob at
    its path and still reads as that text (its stamp), and each file its cases read has the
    blob it had, which is also the stored file's base (docs/sync.md, "What a check and a
    publish read"). A sync would find each of their cases unchanged and bring in none of
    those files."""
    known = workspace.suites.exclude(settled_stamp="").exclude(base_reads=None)
    rows: list[tuple[int, str, str, dict[str, Any]]] = [
        (pk, path, stamp, reads)
        for pk, path, profile, stamp, blob, reads in known.values_list(
            "pk", "path", "profile", "settled_stamp", "base_blob", "base_reads"
        )
        if blob
        and blobs.get(path) == blob
        and isinstance(reads, dict)
        and reads.get("blob") == blob
        and reads.get("profile") == profile
    ]
    if not rows:
        return {}
    wanted = {path for *_, reads in rows for path, blob in reads["files"].items() if blob}
    stored = {
        path: blob_id(text.encode("utf-8"))
        for path, text in workspace.files.exclude(base_text=None).values_list("path", "base_text")
        if path in wanted and text is not None
    }
    stamps = _stamps(workspace.pk, [pk for pk, *_ in rows])
    return {
        path: SettledSuite(stamp, stamps[pk][1])
        for pk, path, stamp, reads in rows
        if stamps[pk][0] == stamp
        and all(
            blobs.get(read) == blob and (blob is None or stored.get(read) == blob)
            for read, blob in reads["files"].items()
        )
    }


def check_still_settled(workspace: Workspace, settled: Mapping[str, SettledSuite]) -> None:
    """Raise SettledChanged unless each suite of `settled` (`settled_files`) still has the
    stamp it had: called under the workspace's lock, so that a sync never counts unchanged a
    suite edited after it was found settled."""
    if not settled:
        return
    rows = [
        (pk, path, stamp)
        for pk, path, stamp in workspace.suites.values_list("pk", "path", "settled_stamp")
        if path in settled
    ]
    now = current_stamps(workspace.pk, [pk for pk, _, _ in rows])
    if len(rows) != len(settled) or any(
        stamp != settled[path].stamp or now.get(pk) != stamp for pk, path, stamp in rows
    ):
        raise SettledChanged()


def current_stamps(workspace_pk: int, suite_pks: Collection[int] | None = None) -> dict[int, str]:
    """Each suite's stamp as its rows are now (two queries of small columns)."""
    return {pk: stamp for pk, (stamp, _) in _stamps(workspace_pk, suite_pks).items()}


def _stamps(
    workspace_pk: int, suite_pks: Collection[int] | None = None
) -> dict[int, tuple[str, int]]:
    """Each suite's stamp, and its number of cases."""
    suites = Suite.objects.filter(workspace_id=workspace_pk)
    cases = Case.objects.filter(suite__workspace_id=workspace_pk)
    wanted = None if suite_pks is None else set(suite_pks)
    if wanted is not None and len(wanted) < 100:
        # A few suites are looked up by key; for many, a list of thousands of keys costs
        # more to send than the workspace's rows they would leave out.
        suites, cases = suites.filter(pk__in=wanted), cases.filter(suite_id__in=wanted)
    time = Cast("updated_at", TextField())
    digests = {}
    counts: Counter[int] = Counter()
    for pk, path, profile, updated in suites.annotate(time=time).values_list(
        "pk", "path", "profile", "time"
    ):
        if wanted is None or pk in wanted:
            digests[pk] = hashlib.sha256(f"{pk}\0{path}\0{profile}\0{updated}".encode())
    rows = (
        cases.order_by("suite_id", "position")
        .annotate(time=time)
        .values_list("suite_id", "pk", "position", "time")
    )
    for suite_pk, pk, position, updated in rows.iterator(chunk_size=5000):
        digest = digests.get(suite_pk)
        if digest is not None:
            digest.update(f"\n{pk} {position} {updated}".encode())
            counts[suite_pk] += 1
    return {pk: (digest.hexdigest(), counts[pk]) for pk, digest in digests.items()}


@dataclass(frozen=True)
class SuiteStates:
    """Each suite's path and stamp as its rows are now, the paths of the suites that still
    read as their base text, and the base blobs of those whose stamp says so."""

    paths: dict[int, str]
    stamps: dict[int, str]
    untouched: set[str]
    base_blobs: dict[str, str]

    @property
    def changed(self) -> list[int]:
        """The suites not untouched, by primary key."""
        return [pk for pk, path in self.paths.items() if path not in self.untouched]


def suite_states(workspace: Workspace) -> SuiteStates:
    """Which suites still read as their base text (`untouched_since_base`): those whose stamp
    is unchanged, and those of the others that the text check finds so."""
    rows = list(workspace.suites.values_list("pk", "path", "settled_stamp", "base_blob"))
    now = current_stamps(workspace.pk)
    paths = {pk: path for pk, path, _, _ in rows}
    still = {pk: (path, blob) for pk, path, stamp, blob in rows if stamp and now.get(pk) == stamp}
    others = [pk for pk in paths if pk not in still]
    checked = untouched_since_base(workspace, only=others) if others else set()
    return SuiteStates(
        paths,
        now,
        {path for path, _ in still.values()} | checked,
        {path: blob for path, blob in still.values() if blob},
    )


def settle(
    workspace: Workspace,
    suite_pks: Iterable[int],
    reads: Mapping[int, ReadFiles] | None = None,
) -> None:
    """Keep the stamp and base blob of each suite of `suite_pks` that reads as its base text,
    and clear them for the others; with `reads`, the files the cases of each suite in it read
    (what a suite keeps of them is checked against its base blob when used, so a suite not
    in `reads` keeps its own)."""
    pks = list(suite_pks)
    if not pks:
        return
    rows = dict(workspace.suites.filter(pk__in=pks).values_list("pk", "path"))
    untouched = untouched_since_base(workspace, only=pks)
    settled = [pk for pk, path in rows.items() if path in untouched]
    stamps = current_stamps(workspace.pk, settled)
    texts = dict(workspace.suites.filter(pk__in=settled).values_list("pk", "base_source_text"))
    values: list[tuple[str, str, int]] = []
    kept_reads: list[tuple[str | None, int]] = []
    for pk in rows:
        text = texts.get(pk)
        blob = "" if text is None else blob_id(text.encode("utf-8"))
        values.append(("", "", pk) if text is None else (stamps[pk], blob, pk))
        read = reads.get(pk) if reads is not None else None
        if read is not None:
            kept = read.as_json(blob) if blob else None
            kept_reads.append((None if kept is None else json_text(kept), pk))
    _update(("settled_stamp", "base_blob"), values)
    _update(("base_reads",), kept_reads)


def imported_states(
    workspace: Workspace,
    suites: Mapping[int, str],
    texts: Mapping[str, str],
    reads: Mapping[str, ReadFiles],
) -> dict[int, tuple[str, str, str | None]]:
    """(stamp, base blob, reads as stored) of the `suites` (primary key → path) of a workspace
    just imported, by primary key, each read as its text (`texts`, by path; `reads`, the
    files its cases read)."""
    stamps = current_stamps(workspace.pk, suites.keys())
    states: dict[int, tuple[str, str, str | None]] = {}
    for pk, path in suites.items():
        text = texts.get(path)
        if text is None:
            continue
        blob = blob_id(text.encode("utf-8"))
        read = reads.get(path)
        kept = read.as_json(blob) if read is not None else None
        states[pk] = (stamps[pk], blob, None if kept is None else json_text(kept))
    return states


def unsettle(suite_pks: Iterable[int]) -> None:
    """Forget what was known of these suites: the next check and publish read them."""
    Suite.objects.filter(pk__in=list(suite_pks)).update(
        settled_stamp="", base_blob="", base_reads=None
    )


def _update(names: tuple[str, ...], values: Sequence[tuple[Any, ...]]) -> None:
    """Set the columns `names` of many suites in one `executemany` (each value tuple ends
    with the suite's primary key)."""
    update_rows(Suite, names, values)
