"""What the case editor template shows: the draft as rows of named fields, and its preview."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from ..eval_files.case_parts import SECTIONS, CaseParts
from ..eval_files.dialects import ROLES
from ..eval_files.errors import EvalFileError
from ..eval_files.parts_2026 import CONVERSATION_SETTINGS, TURNS_KEY, VARIABLES_KEY
from ..eval_files.reading import read_case
from ..eval_files.yaml_dumper import dump_yaml
from ..formatting.lint import Finding
from ..formatting.profile_2025.formatter import FormattedCase, FormattingWarning
from ..formatting.profile_2026 import FormattedTest
from ..models import Case, Suite
from ..services.cases.variants import prefix_change, variant_link
from ..services.profiles import profile_of
from ..services.profiles.workspace_formatter import WorkspaceFormatter
from ..services.review.document_diffs import document_diff
from .case_drafts import (
    BlockDraft,
    CaseDraft,
    EvaluatorDraft,
    ToolCallDraft,
    TurnDraft,
    case_meta_json,
    meta_json,
)
from .field_labels import labelled_problems
from .form_fields import Problems
from .preview_notes import PreviewNotes, SentTexts, preview_notes
from .rows_2026 import today_test_context

SECTION_LABELS = {"input": "Input turns", "expected": "Expected messages"}


@dataclass
class BlockRow:
    """A content block with the names of its form fields."""

    prefix: str
    index: int
    block: BlockDraft
    meta: str
    last: bool

    @property
    def kind(self) -> str:
        """`text`, `file`, or `other` for blocks the editor keeps as written (shown read-only)."""
        if not self.block.editable or self.block.type not in ("text", "file"):
            return "other"
        return self.block.type

    @property
    def raw_text(self) -> str:
        """A kept block's fields, as YAML."""
        return _yaml_text(self.block.raw)


@dataclass
class ToolCallRow:
    """A tool call with the names of its form fields."""

    prefix: str
    index: int
    call: ToolCallDraft
    meta: str


@dataclass
class TurnRow:
    """A turn with the names of its form fields and its blocks."""

    section: str
    index: int
    turn: TurnDraft
    meta: str
    blocks: list[BlockRow]
    last: bool
    tool_calls: list[ToolCallRow] = field(default_factory=list)

    @property
    def prefix(self) -> str:
        """The prefix of every field of this turn, e.g. `input-2`."""
        return f"{self.section}-{self.index}"

    @property
    def key(self) -> str:
        """How editor actions name this turn, e.g. `input:2`."""
        return f"{self.section}:{self.index}"

    @property
    def label(self) -> str:
        """How people name the turn: `turn 3`, or `expected message 1`."""
        kind = "turn" if self.section == "input" else "expected message"
        return f"{kind} {self.index + 1}"

    @property
    def number(self) -> int:
        """The turn's number as people count, from 1."""
        return self.index + 1

    @property
    def takes_blocks(self) -> bool:
        """Whether text and files can be added (content that is a string or a list)."""
        return self.turn.content_form in ("string", "list", "absent")

    @property
    def raw_content_text(self) -> str:
        """Content kept as written (neither text, a list nor a mapping), as YAML."""
        return _yaml_text(self.turn.raw_content)

    @property
    def simple(self) -> bool:
        """Whether the turn is a single text (content written as a plain string)."""
        return (
            self.turn.content_form == "string"
            and len(self.blocks) == 1
            and (self.blocks[0].kind == "text")
        )


@dataclass
class SectionRows:
    """The input or the expected turns."""

    name: str
    label: str
    turns: list[TurnRow] = field(default_factory=list)


@dataclass
class EvaluatorRow:
    """An evaluator with the names of its form fields."""

    prefix: str
    index: int
    evaluator: EvaluatorDraft
    meta: str

    @property
    def multiline_prompt(self) -> bool:
        """Whether the prompt is an inline template of several lines (shown in a text area,
        since a one-line text box would drop its line breaks)."""
        return "\n" in self.evaluator.prompt


def editor_context(
    formatter: WorkspaceFormatter,
    suite: Suite,
    case: Case,
    draft: CaseDraft,
    *,
    focus: str | None = None,
) -> dict[str, Any]:
    """The template context of the editor form (not the preview)."""
    workspace = formatter.workspace
    profile = profile_of(suite)
    return {
        "workspace": workspace,
        "suite": suite,
        "case": case,
        # Named here, not with {% url %} in the page, so the page's partials have it too.
        "editor_url": reverse("case_editor", args=[workspace.slug, suite.pk, case.pk]),
        "fork_url": reverse("case_fork", args=[workspace.slug, suite.pk, case.pk]),
        # A variant of another case, and how its shared turns differ now (docs/user-guide.md).
        "variant_link": variant_link(case.document),
        "prefix_change": prefix_change(case),
        "draft": draft,
        "sections": [_section_rows(draft, name) for name in SECTIONS],
        "evaluators": [
            EvaluatorRow(f"evaluator-{index}", index, evaluator, meta_json(evaluator))
            for index, evaluator in enumerate(draft.evaluators)
        ],
        "case_meta": case_meta_json(draft),
        "outcome_label": _OUTCOME_LABELS.get(draft.spelling.outcome_key, "Outcome"),
        "spelling_note": f"Formatted by {profile.label}",
        **_other_fields(draft),
        **today_test_context(draft.test),
        "asserts_note": asserts_note(suite, draft),
        # Whether the form offers variables, asserts and turns (a case runs once per value).
        "expands_tests": profile.expands_tests,
        "roles": ROLES,
        "file_paths": sorted(formatter.file_texts),
        "focus": focus,
        # A sync's conflict: the repository's version beside this one (docs/sync.md).
        "conflict": (
            document_diff(formatter, suite, case.document, case.theirs_document)
            if case.in_conflict
            else None
        ),
    }


def _section_rows(draft: CaseDraft, name: str) -> SectionRows:
    turns = draft.turns(name)
    rows = SectionRows(name, SECTION_LABELS[name])
    for index, turn in enumerate(turns):
        prefix = f"{name}-{index}"
        blocks = [
            BlockRow(f"{prefix}-block-{b}", b, block, meta_json(block), b == len(turn.blocks) - 1)
            for b, block in enumerate(turn.blocks)
        ]
        calls = [
            ToolCallRow(f"{prefix}-tool-{c}", c, call, meta_json(call))
            for c, call in enumerate(turn.tool_calls or [])
        ]
        rows.turns.append(
            TurnRow(name, index, turn, meta_json(turn), blocks, index == len(turns) - 1, calls)
        )
    return rows


@dataclass
class Preview:
    """The formatting of a draft, arranged for display."""

    formatted: FormattedCase
    candidate_answer: str
    turn_warnings: dict[str, list[FormattingWarning | Finding]]
    case_warnings: list[FormattingWarning]

    @property
    def chat_json(self) -> str:
        """The chat prompt as pretty JSON (for the raw view)."""
        return json.dumps(self.formatted.chat_prompt, indent=2, ensure_ascii=False)

    @property
    def evaluator_prompt(self) -> str:
        """The judge prompt, with the pasted candidate answer when there is one."""
        if self.candidate_answer:
            return self.formatted.evaluator_prompt(self.candidate_answer)
        return self.formatted.evaluator_prompt()


def preview_context(
    formatter: WorkspaceFormatter,
    suite: Suite,
    draft: CaseDraft,
    *,
    mode: str = "lm",
    candidate_answer: str = "",
) -> dict[str, Any]:
    """The template context of the preview pane, including per-turn warning slots."""
    slots = [f"{name}-{index}" for name in SECTIONS for index in range(len(draft.turns(name)))]
    context: dict[str, Any] = {
        "mode": mode,
        "preview": None,
        "preview_2026": None,
        # Refreshed beside the Asserts card as the criteria are typed (out of band).
        "asserts_note": asserts_note(suite, draft) if draft.test.asserts is not None else None,
        # How many tests each list variable makes, refreshed beside the variable as it is typed.
        "variable_expansions": [
            (f"var-{index}", variable.expansions)
            for index, variable in enumerate(draft.test.variables or [])
            if variable.expansions is not None
        ],
    }
    # A field that does not parse is named as the page shows it, and the rest of the case is
    # still previewed without that value (docs/user-guide.md, "The editor").
    problems: Problems = []
    document = draft.document(problems)
    context["field_errors"] = labelled_problems(problems)
    try:
        parts = read_case(document)
    except EvalFileError as error:
        if not problems:
            context["preview_error"] = (
                error.message if not error.field else f"{error.field}: {error.message}"
            )
        context["turn_warnings"] = {slot: [] for slot in slots}
        return context
    if profile_of(suite).expands_tests:
        preview = _preview_2026(formatter, suite, document, slots, mode, candidate_answer)
        sent = [
            SentTexts(
                item.test.id or "(no id)",
                (item.test.question, item.test.system_message or ""),
                tuple(judge.prompt for judge in item.test.judges if judge.prompt is not None),
            )
            for item in preview["preview_2026"]
        ]
        context.update(preview)
        return _with_notes(context, preview_notes(formatter, suite, document, sent))
    formatted = formatter.format_single(parts, suite, mode)  # type: ignore[arg-type]
    turn_warnings: dict[str, list[FormattingWarning | Finding]] = {slot: [] for slot in slots}
    case_warnings = []
    for warning in formatted.warnings:
        slot = f"{warning.section}-{warning.turn}"
        if warning.section is not None and slot in turn_warnings:
            turn_warnings[slot].append(warning)
        else:
            case_warnings.append(warning)
    shown = Preview(formatted, candidate_answer, turn_warnings, case_warnings)
    context["preview"] = shown
    context["turn_warnings"] = turn_warnings
    sent = [
        SentTexts(
            draft.case_id, (formatted.question, formatted.guidelines), (shown.evaluator_prompt,)
        )
    ]
    return _with_notes(context, preview_notes(formatter, suite, document, sent))


def _with_notes(context: dict[str, Any], notes: PreviewNotes) -> dict[str, Any]:
    """`context` with the lint findings beside the formatting warnings of their turns, and the
    token counts (docs/user-guide.md, "Lint rules" and "Token counts")."""
    turn_warnings = context["turn_warnings"]
    for slot, findings in notes.turn_findings.items():
        if slot in turn_warnings:
            turn_warnings[slot].extend(findings)
        else:
            notes.case_findings.extend(findings)
    context["notes"] = notes
    context["turn_tokens"] = notes.turn_tokens
    return context


@dataclass
class TestPreview:
    """One expanded test of a 2026 suite, arranged for display."""

    test: FormattedTest
    warnings: list[FormattingWarning]

    @property
    def chat_json(self) -> str:
        """The chat prompt as pretty JSON (for the raw view)."""
        return json.dumps(self.test.chat_prompt, indent=2, ensure_ascii=False)

    @property
    def graded_per_turn(self) -> bool:
        """Whether a conversation test without asserts of its own has turns that have some."""
        return any(turn.judges for turn in self.test.turns or ())


def _preview_2026(
    formatter: WorkspaceFormatter,
    suite: Suite,
    document: dict[Any, Any],
    slots: list[str],
    mode: str,
    candidate_answer: str,
) -> dict[str, Any]:
    """The preview of a test of the AgentV 2026 profile: each expanded test with its question,
    system message and judge prompts (docs/formatting.md, "The AgentV 2026 profile"). The first
    expanded test's warnings about input messages go beside the editor's turns."""
    tests = formatter.format_tests(
        document,
        suite,
        mode,  # type: ignore[arg-type]
        single=True,
        candidate_answer=candidate_answer or None,
    )
    turn_warnings: dict[str, list[FormattingWarning | Finding]] = {slot: [] for slot in slots}
    previews = []
    for index, test in enumerate(tests):
        others = []
        for warning in test.warnings:
            slot = f"{warning.section}-{warning.turn}"
            if index == 0 and warning.section is not None and slot in turn_warnings:
                turn_warnings[slot].append(warning)
            else:
                others.append(warning)
        previews.append(TestPreview(test, others))
    return {"preview_2026": previews, "turn_warnings": turn_warnings}


def asserts_note(suite: Suite, draft: CaseDraft) -> str:
    """What the Asserts card says of a test without asserts of its own: what grades it, by the
    rule the preview's formatting follows (docs/formatting.md, "The AgentV 2026 profile"); ""
    while it has some."""
    test = draft.test
    if test.asserts:
        return ""
    execution = draft.skeleton.get("execution")
    skips_defaults = isinstance(execution, dict) and execution.get("skip_defaults") is True
    header = suite.document
    default_test = header.get("default_test")
    inherited = header.get("assert") or (
        isinstance(default_test, dict) and default_test.get("assert")
    )
    if inherited and not skips_defaults:
        return "No asserts of its own: the suite's asserts grade it (the preview shows them)."
    key = draft.spelling.outcome_key
    if key in _CRITERIA_KEYS and draft.outcome.strip():
        return f"No asserts: one judge grades it against its {key} (the preview shows its prompt)."
    if test.edits_conversation and any(turn.asserts for turn in test.turns or ()):
        return "No asserts for the conversation as a whole: each turn is graded by its own."
    return "No asserts: the test is not graded."


# The keys today's AgentV builds a judge from when a test has no asserts (`outcome` it ignores).
_CRITERIA_KEYS = ("criteria", "expected_outcome")
_OUTCOME_LABELS = {
    "outcome": "Expected outcome",
    "expected_outcome": "Expected outcome",
    "criteria": "Criteria",
}


def _other_fields(draft: CaseDraft) -> dict[str, Any]:
    """The case's fields that the form does not show, as YAML."""
    others = CaseParts(draft.case_id, spelling=draft.spelling, skeleton=draft.skeleton)
    fields = others.other_fields()
    test = draft.test
    shown = [
        (VARIABLES_KEY, test.variables is not None),
        (test.asserts_key, test.asserts is not None),
        (TURNS_KEY, test.edits_conversation),
        *((name, test.edits_conversation) for name in CONVERSATION_SETTINGS),
    ]
    for key, is_shown in shown:
        if is_shown:
            fields.pop(key, None)
    return {"other_fields": _yaml_text(fields) if fields else "", "other_fields_count": len(fields)}


def _yaml_text(value: Any) -> str:
    if value in ({}, [], None):
        return "{}" if value == {} else "[]" if value == [] else "null"
    return dump_yaml(value).rstrip("\n")
