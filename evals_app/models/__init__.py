"""The stored form of workspaces: suites of cases, their ordered turns and content blocks."""

from __future__ import annotations

from .activity import ActivityRecord
from .api_token import ApiToken
from .assignments import QueueVisit, ReviewAssignment
from .case import Case, ReviewStatus
from .job import Job
from .notifications import Notification, NotificationPreferences
from .remote import RepositoryRemote
from .review import Comment, CommentThread, Membership, ReviewEvent, Revision
from .review_forms import CaseReview, ReviewCriterion, ReviewRules, ReviewScore
from .run import Run, RunResult
from .suggestions import Suggestion
from .trash import DeletedCase
from .workspace import Suite, Workspace, WorkspaceFile

__all__ = [
    "ActivityRecord",
    "ApiToken",
    "Case",
    "CaseReview",
    "Comment",
    "CommentThread",
    "DeletedCase",
    "Job",
    "Membership",
    "Notification",
    "NotificationPreferences",
    "QueueVisit",
    "RepositoryRemote",
    "ReviewAssignment",
    "ReviewCriterion",
    "ReviewEvent",
    "ReviewRules",
    "ReviewScore",
    "ReviewStatus",
    "Revision",
    "Run",
    "RunResult",
    "Suggestion",
    "Suite",
    "Workspace",
    "WorkspaceFile",
]
