"""What the preview adds beside the formatting: the lint findings of the case, placed beside
their turns, and token counts per turn and per formatted text (docs/user-guide.md, "Lint rules"
and "Token counts")."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..eval_files.case_parts import SECTIONS
from ..formatting.lint import Finding, lint_case
from ..formatting.lint.text import message_texts
from ..formatting.token_counts import count_tokens, encoding_named
from ..models import Suite
from ..services.profiles import profile_of
from ..services.profiles.linting import lint_subject
from ..services.profiles.workspace_formatter import WorkspaceFormatter


@dataclass(frozen=True)
class SentTexts:
    """What one test sends: to the model (its question, guidelines or system message) and to
    each judge (its prompt)."""

    label: str
    model: tuple[str, ...]
    judges: tuple[str, ...] = ()


@dataclass(frozen=True)
class TokenCount:
    """The tokens one test sends, in the workspace's encoding: to the model, and to each judge."""

    label: str
    model: int
    judges: tuple[int, ...] = ()


@dataclass
class PreviewNotes:
    """The case's lint findings (those of a turn by slot, `input-2`; the others apart) and its
    token counts: per turn by slot, and per formatted text of each test."""

    encoding: str
    context_window: int
    turn_findings: dict[str, list[Finding]] = field(default_factory=dict)
    case_findings: list[Finding] = field(default_factory=list)
    turn_tokens: dict[str, int] = field(default_factory=dict)
    texts: list[TokenCount] = field(default_factory=list)

    @property
    def sent_tokens(self) -> int:
        """The largest count of what the model receives for one test (its question with its
        guidelines or system message): what must fit in the context window."""
        return max((count.model for count in self.texts), default=0)

    @property
    def window_share(self) -> int:
        """The share of the context window that `sent_tokens` takes, in percent."""
        return round(100 * self.sent_tokens / self.context_window) if self.context_window else 0

    @property
    def over_window(self) -> bool:
        """Whether a test is larger than the workspace's context window."""
        return self.sent_tokens > self.context_window


def preview_notes(
    formatter: WorkspaceFormatter,
    suite: Suite,
    document: dict[Any, Any],
    sent: list[SentTexts],
) -> PreviewNotes:
    """The notes of the unsaved case `document` of `suite`; `sent` is what each of its tests
    sends, as formatted."""
    workspace = formatter.workspace
    encoding = encoding_named(workspace.token_encoding)
    notes = PreviewNotes(encoding, workspace.context_window)
    header = formatter.file_header(suite)
    subject = lint_subject(profile_of(suite), document, header, eval_path=suite.path)
    if subject is None:
        return notes
    files = formatter.files_for(subject.file_references(), suite.path)
    for finding in lint_case(replace(subject, files=files)):
        slot = f"{finding.section}-{finding.turn}"
        if finding.section is not None and finding.turn is not None:
            notes.turn_findings.setdefault(slot, []).append(finding)
        else:
            notes.case_findings.append(finding)
    messages = {"input": subject.input_messages, "expected": subject.expected_messages}
    for section in SECTIONS:
        for index, message in enumerate(messages[section]):
            text = "\n".join(message_texts(message))
            notes.turn_tokens[f"{section}-{index}"] = count_tokens(text, encoding)
    notes.texts = [
        TokenCount(
            texts.label,
            sum(count_tokens(text, encoding) for text in texts.model),
            tuple(count_tokens(text, encoding) for text in texts.judges),
        )
        for texts in sent
    ]
    return notes
