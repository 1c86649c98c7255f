"""The stored form of workspaces: suites of cases, their ordered turns and content blocks."""

from __future__ import annotations

from .case import Case, ContentBlock, Message
from .workspace import Suite, Workspace, WorkspaceFile

__all__ = ["Case", "ContentBlock", "Message", "Suite", "Workspace", "WorkspaceFile"]
