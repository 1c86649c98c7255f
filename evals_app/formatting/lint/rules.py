"""The lint rules, each with an id, a severity and the reason it exists (docs/user-guide.md,
"Lint rules"), and the finding a rule reports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]
Section = Literal["input", "expected"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the linter: what `id` a case's `metadata.lint_ignore` names it by, how much a
    finding of it matters, and why it is a rule at all."""

    id: str
    severity: Severity
    reason: str


@dataclass(frozen=True, slots=True)
class Finding:
    """A rule's finding in one case. `message` names the turn and the field in words;
    `section` and `turn` (from 0) place it beside its turn in the editor."""

    rule: str
    severity: Severity
    message: str
    field: str = ""
    section: Section | None = None
    turn: int | None = None

    def as_json(self) -> dict[str, Any]:
        """The finding as plain data: stored with a case's summary, sent by the API."""
        return {
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "field": self.field,
            "section": self.section,
            "turn": self.turn,
        }


RULES: dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule(
            "role-order",
            "warning",
            "Roles out of order make the model answer a conversation nobody would have: two user "
            "turns in a row with no answer between them, a tool result with no assistant turn "
            "that asked for it, or a system turn in mid-conversation (sent as something else).",
        ),
        Rule(
            "tool-pairing",
            "error",
            "A tool result must answer a tool call of an earlier assistant turn by its id, and a "
            "call the conversation makes needs its result; otherwise the model sees a reply to "
            "nothing, or a question never answered.",
        ),
        Rule(
            "empty-turn",
            "warning",
            "A turn with no text, file or tool call is left out of what the model receives, so "
            "the conversation is not the one written.",
        ),
        Rule(
            "answer-in-input",
            "error",
            "When the expected answer (or a long span of it) is already in the input, the model "
            "can copy it and the test measures nothing.",
        ),
        Rule(
            "undefined-variable",
            "error",
            "A `{{ name }}` that no variable defines renders as empty text: the model receives a "
            "prompt with a hole in it.",
        ),
        Rule(
            "unused-variable",
            "info",
            "A variable no template uses still multiplies the tests when it is a list, and is "
            "often a misspelling of one that is used.",
        ),
        Rule(
            "duplicate-id",
            "error",
            "AgentV reports results by test id: two tests of one run with the same id overwrite "
            "each other's results.",
        ),
        Rule(
            "near-duplicate",
            "warning",
            "Two tests whose questions are nearly the same measure the same thing twice and "
            "weigh it double in the scores.",
        ),
        Rule(
            "no-grader",
            "warning",
            "A test with no outcome, criteria, rubric, assert or evaluator has nothing to be "
            "graded against: every run of it passes or fails by default.",
        ),
        Rule(
            "vague-rubric",
            "warning",
            "A rubric or criterion that is very short, or made only of vague words such as "
            "'good' or 'correct', lets the judge grade by taste: two judges disagree.",
        ),
        Rule(
            "missing-attachment",
            "error",
            "A file the case refers to that the workspace does not hold is left out of what the "
            "model receives.",
        ),
        Rule(
            "lint-ignore",
            "warning",
            "A rule is silenced for a case only with a reason a reviewer can read, and only a "
            "rule that exists.",
        ),
    )
}


def finding(
    rule: str,
    message: str,
    *,
    field: str = "",
    section: Section | None = None,
    turn: int | None = None,
) -> Finding:
    """A finding of the rule `rule`, at the rule's severity."""
    return Finding(rule, RULES[rule].severity, message, field, section, turn)
