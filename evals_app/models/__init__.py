"""The stored form of workspaces: suites of cases, their ordered turns and content blocks."""

from __future__ import annotations

from .activity import ActivityRecord
from .api_token import ApiToken
from .case import Case, ReviewStatus
from .job import Job
from .remote import RepositoryRemote
from .review import Comment, CommentThread, Membership, ReviewEvent, Revision
from .run import Run, RunResult
from .workspace import Suite, Workspace, WorkspaceFile

__all__ = [
    "ActivityRecord",
    "ApiToken",
    "Case",
    "Comment",
    "CommentThread",
    "Job",
    "Membership",
    "RepositoryRemote",
    "ReviewEvent",
    "ReviewStatus",
    "Revision",
    "Run",
    "RunResult",
    "Suite",
    "Workspace",
    "WorkspaceFile",
]
