"""From one test to the tests AgentV runs: `default_test` vars, `prompts`, list variables and
the second rendering pass (docs/formatting.md, "The AgentV 2026 profile", step 1).

The order is AgentV's (its yaml-parser.ts): default vars are merged, each test is expanded once
per prompt (the prompt rendered with the test's variables as they are), then once per value of
each list variable, and only then are the test's fields rendered again with the final variables.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from evals_app.formatting.profile_2026.templates import TemplateContext, render_value
from evals_app.formatting.workspace_files import FileSource, resolve_file

FILE_PROTOCOL = "file://"
# The fields of a test that the second pass renders (AgentV's interpolateRawEvalCase).
RENDERED_FIELDS = (
    "id",
    "description",
    "criteria",
    "expected_outcome",
    "input",
    "input_files",
    "expected_output",
    "assert",
)
TURN_FIELDS = ("input", "expected_output", "assert")
_UNSAFE_ID_CHARACTERS = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class Prompt:
    """One entry of `prompts`: its id and the template it renders (text or messages)."""

    id: str
    template: Any


@dataclass
class ExpandedTest:
    """One test as AgentV runs it: its fields rendered, its variables, its prompt's id."""

    document: dict[Any, Any]
    variables: dict[Any, Any]
    prompt_id: str | None
    warnings: list[str] = field(default_factory=list)


def stable_id(value: Any) -> str:
    """The first 12 hex digits of the SHA-256 of `value`'s compact JSON (as JSON.stringify
    writes it: no spaces, non-ASCII kept)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def safe_prompt_id(value: str) -> str:
    """A prompt id as it appears in an expanded test's id: runs of characters outside
    `A-Za-z0-9_.-` become `-`, leading and trailing `-` go, at most 48 characters."""
    safe = _UNSAFE_ID_CHARACTERS.sub("-", value.strip()).strip("-")
    return safe[:48] if safe else stable_id(value)


def read_prompts(
    raw: Any, *, eval_path: str, files: FileSource, warnings: list[str]
) -> list[Prompt] | None:
    """The suite's `prompts`, None when it has none. A prompt that cannot be read is left out
    with a warning (AgentV refuses the file)."""
    if raw is None:
        return None
    prompts: list[Prompt] = []
    for index, entry in enumerate(prompt_entries(raw)):
        prompt = _read_prompt(entry, eval_path=eval_path, files=files)
        if isinstance(prompt, str):
            warnings.append(f"prompts[{index}]: {prompt}; AgentV refuses this file.")
        else:
            prompts.append(prompt)
    return prompts


def prompt_entries(raw: Any) -> list[Any]:
    """The entries of a `prompts` value, each one prompt: a list's items, except that a chat
    array (a list of messages) is one prompt, as is any value that is not a list."""
    return raw if isinstance(raw, list) and not _is_chat_array(raw) else [raw]


def _read_prompt(entry: Any, *, eval_path: str, files: FileSource) -> Prompt | str:
    if isinstance(entry, str):
        if entry.startswith(FILE_PROTOCOL):
            return _prompt_file(entry, None, eval_path=eval_path, files=files)
        return Prompt(f"prompt-{stable_id(entry)}", entry)
    if isinstance(entry, list):
        if not _is_chat_array(entry):
            return "a list of prompts must hold chat messages"
        return Prompt(f"chat-{stable_id(entry)}", entry)
    if not isinstance(entry, dict):
        return "expected text, a chat array or a mapping"
    raw_id = entry.get("id")
    explicit = raw_id.strip() if isinstance(raw_id, str) else None
    if "file" in entry:
        if not isinstance(entry["file"], str) or not entry["file"]:
            return "`file` must be a path"
        return _prompt_file(entry["file"], explicit, eval_path=eval_path, files=files)
    if "messages" in entry:
        if not isinstance(entry["messages"], list) or not _is_chat_array(entry["messages"]):
            return "`messages` must be a list of chat messages"
        return Prompt(explicit or f"chat-{stable_id(entry['messages'])}", entry["messages"])
    if "prompt" in entry:
        value = entry["prompt"]
        if isinstance(value, list) and _is_chat_array(value):
            return Prompt(explicit or f"chat-{stable_id(value)}", value)
        if not isinstance(value, str):
            return "`prompt` must be text or chat messages"
        return Prompt(explicit or f"string-{stable_id(value)}", value)
    if "raw" in entry:
        if not isinstance(entry["raw"], str) or not entry["raw"]:
            return "`raw` must be text"
        return Prompt(explicit or f"string-{stable_id(entry['raw'])}", entry["raw"])
    if _is_message(entry):
        return Prompt(explicit or f"chat-{stable_id(entry)}", [entry])
    return "expected `raw`, `prompt`, `messages` or `file`"


def _prompt_file(
    value: str, explicit: str | None, *, eval_path: str, files: FileSource
) -> Prompt | str:
    path = value.removeprefix(FILE_PROTOCOL)
    resolution = resolve_file(path, eval_path, files)
    if resolution.file is None:
        return f'prompt file "{resolution.display_path}" was not found'
    return Prompt(explicit or resolution.display_path, resolution.file.text)


def _is_message(value: Any) -> bool:
    return isinstance(value, dict) and value.get("role") in ("system", "user", "assistant", "tool")


def _is_chat_array(value: list[Any]) -> bool:
    return bool(value) and all(_is_message(item) for item in value)


def merged_variables(document: dict[Any, Any], header: dict[Any, Any]) -> dict[Any, Any] | None:
    """The test's `vars` over `default_test.vars`; None when neither is a mapping."""
    own = document.get("vars")
    default_test = header.get("default_test")
    defaults = default_test.get("vars") if isinstance(default_test, dict) else None
    if own is not None and not isinstance(own, dict):
        return None
    if not isinstance(defaults, dict) or not defaults:
        return own
    return {**defaults, **(own or {})}


def expand_test(
    document: dict[Any, Any], header: dict[Any, Any], prompts: list[Prompt] | None
) -> Iterator[ExpandedTest]:
    """Every test AgentV makes of `document`, in its order: prompts, then list variables."""
    test = dict(document)
    variables = merged_variables(document, header)
    if variables is not None:
        test["vars"] = variables
    if prompts is None:
        yield from _expand_lists(test, None)
        return
    if "input" in test:
        # A test's own input becomes the variable `input` of the prompts (AgentV's rule).
        test.pop("input_files", None)
        test["vars"] = {**(variables or {}), "input": test.pop("input")}
    source_id = test.get("id")
    for prompt in prompts:
        prompt_id = safe_prompt_id(prompt.id)
        prompted = dict(test)
        if isinstance(source_id, str) and source_id and len(prompts) > 1:
            prompted["id"] = f"{source_id}__prompt_{prompt_id}"
        # Without any `vars` AgentV does not render at all: templates stay as written.
        prompt_variables = prompted.get("vars")
        context = TemplateContext(prompt_variables if isinstance(prompt_variables, dict) else {})
        if isinstance(prompt_variables, dict):
            prompted["input"] = render_value(prompt.template, context)
        else:
            prompted["input"] = prompt.template
        for expanded in _expand_lists(prompted, prompt_id):
            expanded.warnings[:0] = context.warnings
            yield expanded


def _expand_lists(test: dict[Any, Any], prompt_id: str | None) -> Iterator[ExpandedTest]:
    variables = test.get("vars")
    if not isinstance(variables, dict):
        yield _second_pass(test, None, prompt_id)
        return
    combinations: list[dict[Any, Any]] = [{}]
    for name, value in variables.items():
        values = value if expands_variable(value) else [value]
        combinations = [
            {**combination, name: item} for combination in combinations for item in values
        ]
    for combination in combinations:
        yield _second_pass({**test, "vars": combination}, combination, prompt_id)


def expands_variable(value: Any) -> bool:
    """Whether a variable's value makes one test per item: a list whose first item is text
    (AgentV looks at the first item only), or an empty list (no test at all)."""
    return isinstance(value, list) and (not value or isinstance(value[0], str))


def _second_pass(
    test: dict[Any, Any], variables: dict[Any, Any] | None, prompt_id: str | None
) -> ExpandedTest:
    if variables is None:
        return ExpandedTest(test, {}, prompt_id)
    context = TemplateContext(variables)
    rendered = dict(test)
    for name in RENDERED_FIELDS:
        if name in rendered:
            rendered[name] = render_value(rendered[name], context)
    if isinstance(rendered.get("turns"), list):
        rendered["turns"] = [
            {
                **turn,
                **{name: render_value(turn[name], context) for name in TURN_FIELDS if name in turn},
            }
            if isinstance(turn, dict)
            else turn
            for turn in rendered["turns"]
        ]
    return ExpandedTest(rendered, variables, prompt_id, list(context.warnings))
