"""What a re-import into an existing workspace did, in the words of its job's page: cases
added, changed, kept and in conflict (docs/user-guide.md, "Importing"; the rule is docs/sync.md).
"""

from __future__ import annotations

from typing import NamedTuple

from ..repository.three_way import (
    ADDED,
    BASE_MOVED,
    REMOVED,
    UNCHANGED,
    UPDATED,
    SyncReport,
)


class ReimportCounts(NamedTuple):
    """Cases by what the re-import did to them, and the conflicts by name."""

    added: int
    changed: int  # the files' version taken (updated), or the base moved under an app edit
    kept: int  # the same in the files and the app
    removed: int
    conflicts: list[str]  # "suite path: case id", and file headers and files in conflict

    @property
    def in_conflict(self) -> int:
        """How many cases, file headers and files are in conflict."""
        return len(self.conflicts)


def reimport_counts(report: SyncReport) -> ReimportCounts:
    """The counts of `report`, for the import page."""
    conflicts = [f"{outcome.suite_path}: {outcome.case_id}" for outcome in report.conflicts]
    conflicts += [f"{path} (file header)" for path in report.suite_conflicts]
    conflicts += [f"{path} (file)" for path in report.file_conflicts]
    return ReimportCounts(
        added=report.counts[ADDED],
        changed=report.counts[UPDATED] + report.counts[BASE_MOVED],
        kept=report.counts[UNCHANGED],
        removed=report.counts[REMOVED],
        conflicts=conflicts,
    )
