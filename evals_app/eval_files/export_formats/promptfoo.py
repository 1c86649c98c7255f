"""A suite as a promptfoo config (docs/exports.md, "promptfoo").

Every test sends its chat messages through one prompt, `{{ messages | dump }}`, as promptfoo's
documentation does for multi-turn chats; asserts keep their type where promptfoo has it (AgentV
took promptfoo's names); what promptfoo has no equivalent for is kept in the test's
`metadata.agentv_unsupported` and reported as a warning.
"""

from __future__ import annotations

import json
from typing import Any

from ...formatting.workspace_files import FileSource
from ..yaml_dumper import dump_yaml
from .chat_messages import MessageWriter
from .portable import PortableSuite, PortableTest

CHAT_PROMPT = "{{ messages | dump }}"
UNSUPPORTED = "agentv_unsupported"
# promptfoo's assert types (its `BaseAssertionTypesSchema`, version 0.123), each also with `not-`.
PROMPTFOO_ASSERT_TYPES = frozenset(
    [
        "agent-rubric",
        "answer-relevance",
        "bleu",
        "classifier",
        "contains",
        "contains-all",
        "contains-any",
        "contains-html",
        "contains-json",
        "contains-sql",
        "contains-xml",
        "context-faithfulness",
        "context-recall",
        "context-relevance",
        "conversation-relevance",
        "cost",
        "equals",
        "factuality",
        "finish-reason",
        "g-eval",
        "gleu",
        "guardrails",
        "icontains",
        "icontains-all",
        "icontains-any",
        "is-html",
        "is-json",
        "is-refusal",
        "is-sql",
        "is-valid-function-call",
        "is-valid-openai-function-call",
        "is-valid-openai-tools-call",
        "is-xml",
        "javascript",
        "latency",
        "levenshtein",
        "llm-rubric",
        "pi",
        "meteor",
        "model-graded-closedqa",
        "model-graded-factuality",
        "moderation",
        "perplexity",
        "perplexity-score",
        "python",
        "regex",
        "rouge-n",
        "ruby",
        "similar",
        "similar:cosine",
        "similar:dot",
        "similar:euclidean",
        "starts-with",
        "tool-call-f1",
        "skill-used",
        "trajectory:goal-success",
        "trajectory:tool-args-match",
        "trajectory:step-count",
        "trajectory:tool-sequence",
        "trajectory:tool-used",
        "trace-error-spans",
        "trace-span-count",
        "trace-span-duration",
        "search-rubric",
        "webhook",
        "word-count",
    ]
)
# The keys of a promptfoo assert (its `AssertionSchema`); promptfoo drops any other.
ASSERT_KEYS = frozenset(
    {"type", "value", "config", "threshold", "weight", "provider", "rubricPrompt", "metric"}
    | {"transform", "contextTransform"}
)
ASSERT_SET_KEYS = frozenset({"type", "assert", "weight", "metric", "threshold", "config"})
_REGEX_SPECIAL = frozenset("\\^$.|?*+()[]{}/")


def promptfoo_config(suite: PortableSuite, files: FileSource) -> str:
    """The promptfoo config YAML of `suite`; warnings go to `suite.warnings` and, as comments,
    to the top of the file."""
    writer = _ConfigWriter(suite, files)
    config: dict[str, Any] = {}
    if suite.description:
        config["description"] = suite.description
    config["prompts"] = [CHAT_PROMPT]
    config["providers"] = []
    default_test = writer.default_test()
    if default_test:
        config["defaultTest"] = default_test
    config["tests"] = [entry for test in suite.tests for entry in writer.tests(test)]
    if suite.other:  # promptfoo's config has `metadata` too
        config["metadata"] = {UNSUPPORTED: {str(key): value for key, value in suite.other.items()}}
        for key in suite.other:
            suite.warnings.add(
                "the suite",
                str(key),
                f"promptfoo has no equivalent; kept in metadata.{UNSUPPORTED}",
            )
    # Through JSON: tests that share a value (an expanded test's messages) are written out
    # in full, not as YAML aliases, and keys are text as promptfoo's JSON schema wants them.
    body = dump_yaml(json.loads(json.dumps(config, ensure_ascii=False, default=str)))
    providers = ", ".join(str(item) for item in suite.providers) or "none named"
    body = body.replace(
        "\nproviders: []\n",
        f"\n# Name the models to test here, e.g. `- openai:gpt-4.1-mini` (the AgentV suite's "
        f"targets: {_one_line(providers)}).\nproviders: []\n",
        1,
    )
    return _header_comment(suite) + body


def _header_comment(suite: PortableSuite) -> str:
    lines = [
        f"# promptfoo config exported by agentv-web from the AgentV suite {suite.path}.",
        "# Each test's vars.messages are the chat messages AgentV sends; the prompt sends them.",
    ]
    warnings = suite.warnings.lines
    if warnings:
        lines.append(f"# {len(warnings)} warnings (what promptfoo has no equivalent for is kept")
        lines.append(f"# in each test's metadata.{UNSUPPORTED}):")
        lines.extend(f"# - {_one_line(warning)}" for warning in warnings)
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())


class _ConfigWriter:
    def __init__(self, suite: PortableSuite, files: FileSource) -> None:
        self.suite = suite
        self.warnings = suite.warnings
        self.where = "the suite's defaults"
        self.criteria = ""
        self.messages = MessageWriter(
            suite.path, files, lambda name, message: self.warnings.add(self.where, name, message)
        )

    def default_test(self) -> dict[str, Any]:
        """`defaultTest`: the suite's default variables and asserts."""
        self.where = "the suite's defaults"
        self.criteria = ""
        kept: dict[str, Any] = {}
        entry: dict[str, Any] = {}
        variables = self._variables(self.suite.default_vars, "default_test.vars", kept)
        if variables:
            entry["vars"] = variables
        asserts = self._asserts(self.suite.default_asserts, "assert", kept)
        if asserts:
            entry["assert"] = asserts
        metadata = self._other(self.suite.default_other, "default_test", entry, kept)
        if kept:
            metadata[UNSUPPORTED] = kept
        if metadata:
            entry["metadata"] = metadata
        return entry

    def tests(self, test: PortableTest) -> list[dict[str, Any]]:
        """The promptfoo tests of one AgentV test: one, or one per turn of a conversation."""
        self.where = test.where
        self.criteria = test.criteria
        self.messages.lost = False
        kept: dict[str, Any] = {}
        messages = self.messages.messages(test.input, "input")
        if self.messages.lost:
            kept["input"] = test.input
        variables = self._variables(
            {
                name: value
                for name, value in test.variables.items()
                if self.suite.default_vars.get(name, _ABSENT) != value
            },
            "vars",
            kept,
        )
        base: dict[str, Any] = {"description": test.description or test.id}
        metadata = self._other(test.other, "", base, kept)
        metadata = {"agentv_id": test.id, **metadata}
        if test.skips_defaults:
            base["options"] = {**base.get("options", {}), "disableDefaultAsserts": True}
        own = self._asserts(test.asserts, "assert", kept)
        if not test.asserts and not (self.suite.default_asserts and not test.skips_defaults):
            if test.criteria.strip():  # AgentV grades criteria alone as one rubric item
                own = [{"type": "llm-rubric", "value": test.criteria}]
        elif test.criteria.strip():
            metadata["criteria"] = test.criteria
            self.warnings.add(
                test.where,
                "criteria",
                "promptfoo's judges do not read the criteria; kept in metadata.criteria",
            )
        if test.turns:
            return self._turn_tests(test, base, messages, variables, own, metadata, kept)
        if test.expected is not None:
            variables["expected_output"] = test.expected
        entry = {**base, "vars": {"messages": messages, **variables}}
        if own:
            entry["assert"] = own
        if kept:
            metadata[UNSUPPORTED] = kept
        return [{**entry, "metadata": metadata}]

    def _turn_tests(
        self,
        test: PortableTest,
        base: dict[str, Any],
        history: list[dict[str, Any]],
        variables: dict[str, Any],
        own: list[dict[str, Any]],
        metadata: dict[str, Any],
        kept: dict[str, Any],
    ) -> list[dict[str, Any]]:
        """A conversation as one test per turn, grouped by `metadata.conversationId`: turn k
        sends the input, each earlier turn's input and expected output, and its own input."""
        turns = test.turns or []
        self.warnings.add(
            test.where,
            "turns",
            "each turn is a promptfoo test (metadata.conversationId); the answers of earlier "
            "turns it sends are their expected outputs, not the model's own",
        )
        entries: list[dict[str, Any]] = []
        for index, turn in enumerate(turns):
            field = f"turns[{index}]"
            turn_input = self.messages.text_or_messages(turn.get("input"), "user", f"{field}.input")
            if self.messages.lost:
                kept.setdefault("turns", turns)
            messages = [*history, *turn_input]
            turn_variables = dict(variables)
            expected = turn.get("expected_output")
            if expected is not None:
                turn_variables["expected_output"] = expected
            asserts = self._asserts(_as_list(turn.get("assert")), f"{field}.assert", kept)
            if index == len(turns) - 1:
                asserts += own
            for key in turn:
                if key not in ("input", "expected_output", "assert"):
                    kept[f"{field}.{key}"] = turn[key]
                    self._unsupported(f"{field}.{key}")
            entry: dict[str, Any] = {
                **base,
                "description": f"{base['description']} (turn {index + 1} of {len(turns)})",
                "vars": {"messages": messages, **turn_variables},
            }
            if asserts:
                entry["assert"] = asserts
            entry["metadata"] = {**metadata, "conversationId": test.id, "turn": index + 1}
            entries.append(entry)
            answer = self.messages.text_or_messages(
                expected, "assistant", f"{field}.expected_output"
            )
            if not answer and index < len(turns) - 1:
                self.warnings.add(
                    test.where,
                    f"{field}.expected_output",
                    "none, so the later turns are sent without an answer to this one",
                )
            history = [*messages, *answer]
        if kept:
            for entry in entries:
                entry["metadata"][UNSUPPORTED] = kept
        return entries

    def _variables(
        self, variables: dict[Any, Any], field: str, kept: dict[str, Any]
    ) -> dict[str, Any]:
        """The variables promptfoo takes: named by text, not null, not `file://` (which
        promptfoo would read as a file), not `messages` (the prompt's)."""
        taken: dict[str, Any] = {}
        for name, value in variables.items():
            if (
                not isinstance(name, str)
                or name in ("messages", "expected_output")
                or value is None
                or (isinstance(value, str) and value.startswith("file://"))
            ):
                kept[f"{field}.{name}"] = value
                self._unsupported(f"{field}.{name}", "promptfoo would read this variable otherwise")
            else:
                taken[name] = value
        return taken

    def _other(
        self, other: dict[Any, Any], field: str, entry: dict[str, Any], kept: dict[str, Any]
    ) -> dict[str, Any]:
        """The test's keys besides its parts: `options` and `threshold` go on `entry`,
        `metadata` is returned, `execution.skip_defaults` is promptfoo's
        `disableDefaultAsserts`, anything else is kept."""
        metadata: dict[str, Any] = {}
        prefix = f"{field}." if field else ""
        for key, value in other.items():
            if key == "metadata" and isinstance(value, dict):
                metadata.update({str(name): item for name, item in value.items()})
            elif key == "options" and isinstance(value, dict):
                entry["options"] = {**value, **entry.get("options", {})}
            elif key == "threshold" and _fits(key, value):
                entry["threshold"] = value
            elif key == "execution" and isinstance(value, dict):
                rest = {name: item for name, item in value.items() if name != "skip_defaults"}
                if rest:
                    kept[f"{prefix}execution"] = rest
                    self._unsupported(f"{prefix}execution")
            else:
                kept[f"{prefix}{key}"] = value
                self._unsupported(f"{prefix}{key}")
        return metadata

    def _asserts(self, asserts: list[Any], field: str, kept: dict[str, Any]) -> list[Any]:
        """promptfoo's asserts for AgentV's; one promptfoo cannot read wholly is kept as
        written (and, when its type is promptfoo's, converted without what it lacks)."""
        converted = []
        for index, item in enumerate(asserts):
            one, whole = self._assert(item, f"{field}[{index}]")
            if one is not None:
                converted.append(one)
            if not whole:
                kept[f"{field}[{index}]"] = item
        return converted

    def _assert(self, item: Any, field: str) -> tuple[dict[str, Any] | None, bool]:
        """promptfoo's assert for an AgentV assert (None when it has no equivalent), and
        whether nothing of it was left out (each loss is recorded as a warning)."""
        if isinstance(item, str):
            return {"type": "llm-rubric", "value": item}, True
        kind = item.get("type") if isinstance(item, dict) else None
        if not isinstance(item, dict) or not isinstance(kind, str):
            self._unsupported(field, "an assert without a type")
            return None, False
        if kind == "assert-set":
            return self._assert_set(item, field)
        converted: dict[str, Any] = {"type": kind}
        if kind == "ends-with" and isinstance(item.get("value"), str):
            converted = {"type": "regex", "value": _escaped(item["value"]) + "$"}
        elif kind.removeprefix("not-") not in PROMPTFOO_ASSERT_TYPES:
            self._unsupported(field, f"promptfoo has no `{kind}` assert")
            return None, False
        whole = True
        for key, value in item.items():
            if key in converted:
                continue
            if key in ASSERT_KEYS and _fits(key, value):
                converted[key] = value
            elif key == "name" and isinstance(value, str) and "metric" not in item:
                converted["metric"] = value
            else:
                why = "takes no such" if key in ASSERT_KEYS else "has no"
                self._unsupported(f"{field}.{key}", f"promptfoo's `{kind}` assert {why} `{key}`")
                whole = False
        if kind in ("llm-rubric", "agent-rubric") and not self._rubric(converted, field):
            return None, False
        return converted, whole

    def _rubric(self, converted: dict[str, Any], field: str) -> bool:
        """Whether the rubric has text promptfoo reads: AgentV's list of rubric lines becomes
        a list in one text."""
        value = converted.get("value")
        if isinstance(value, list) and value and all(isinstance(line, str) for line in value):
            converted["value"] = "\n".join(f"- {line}" for line in value)
        elif value is None and self.criteria.strip():
            # A judge with only a prompt template grades the criteria (as the upgrade reads it).
            converted["value"] = self.criteria
        elif not isinstance(value, str):
            self._unsupported(f"{field}.value", "promptfoo's llm-rubric needs its rubric as text")
            return False
        return True

    def _assert_set(self, item: dict[Any, Any], field: str) -> tuple[dict[str, Any] | None, bool]:
        members = item.get("assert")
        if not isinstance(members, list) or any(key not in ASSERT_SET_KEYS for key in item):
            self._unsupported(field, "an assert-set promptfoo cannot read")
            return None, False
        converted = [
            self._assert(member, f"{field}.assert[{n}]") for n, member in enumerate(members)
        ]
        if any(member is None or not whole for member, whole in converted):
            self._unsupported(field, "an assert-set with a member promptfoo cannot read")
            return None, False
        return {**item, "assert": [member for member, _ in converted]}, True

    def _unsupported(self, field: str, why: str = "promptfoo has no equivalent") -> None:
        self.warnings.add(self.where, field, f"{why}; kept in metadata.{UNSUPPORTED}")


_ABSENT = object()


def _fits(key: str, value: Any) -> bool:
    """Whether promptfoo's schema takes `value` for the assert key `key`."""
    if key in ("threshold", "weight"):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if key == "metric":
        return isinstance(value, str)
    if key == "config":
        return isinstance(value, dict)
    return True


def _escaped(text: str) -> str:
    """`text` matched literally by a JavaScript regular expression."""
    return "".join(f"\\{char}" if char in _REGEX_SPECIAL else char for char in text)


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]
