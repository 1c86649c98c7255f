"""The spelling of a suite that a run hands to AgentV: the suite's own file when the configured
AgentV reads it, else a spelling it reads made in memory from the same content; the file in
the repository never changes (docs/runs.md, "When AgentV cannot read a suite's spelling")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...eval_files.grading_upgrade import GradingContext, evaluator_asserts, judge_prompt_values
from ...eval_files.judge_templates import upgrade_judge_template
from ...eval_files.merge_keys import merged
from ...eval_files.upgrade import TODAY_CASES_KEY, upgrade_eval_file
from ...eval_files.yaml_dumper import dump_yaml
from ...formatting.profile_2026.expansion import Prompt, expand_test, read_prompts
from ...formatting.workspace_files import MappingFiles, resolve_file
from ...models import Suite
from ..exports.suite_texts import suite_file_text
from .formats import EVAL_FORMATS, eval_format_of
from .generations import Agentv4, Generation
from .generations.tests_with_input import downgraded_file

# Older spellings of a case's parts that AgentV 4 does not read, and its name for each.
FOR_AGENTV_4 = {
    "input_messages": "input",
    "expected_messages": "expected_output",
    "outcome": "criteria",
}
# Grader types of older files that AgentV 4 refuses or skips, and its own name for each.
GRADERS_FOR_AGENTV_4 = {
    "llm_judge": "llm-grader",
    "llm-judge": "llm-grader",
    "code_judge": "code-grader",
    "code-judge": "code-grader",
    "code": "code-grader",
    "script": "code-grader",
}
GRADER_LISTS = ("assertions", "assert", "evaluators")


@dataclass
class RunSpelling:
    """What AgentV runs: the suite file's text, the workspace files that differ from the
    stored ones (judge templates as the upgrade writes them), the ids AgentV gives each case's
    tests, each case's graders it cannot run, and what the result says of the spelling."""

    text: str
    test_ids: list[list[str]]
    not_run: list[list[str]]
    note: str = ""
    files: dict[str, str] = field(default_factory=dict)


def run_spelling(
    generation: Generation, suite: Suite, documents: list[dict[Any, Any]], files: dict[str, str]
) -> RunSpelling:
    """The spelling of `suite` holding `documents` that `generation` runs (`files`: the
    workspace's files, for prompt files and judge templates)."""
    eval_format = eval_format_of(suite)
    today = eval_format == EVAL_FORMATS["prompts"]
    nothing: list[list[str]] = [[] for _ in documents]
    if generation.reads(eval_format):
        if (
            isinstance(generation, Agentv4)
            and not today
            and _needs_agentv_4_names([suite.document, *documents])
        ):
            renamed = [_for_agentv_4(document) for document in documents]
            header = _for_agentv_4(suite.document)
            return RunSpelling(
                _file_text(header, suite.cases_key, suite.cases_key, renamed),
                [[_case_id(document)] for document in documents],
                nothing,
                _note(generation, "older names of a case's parts and graders in its own"),
            )
        text = suite_file_text(suite, documents)
        if today:
            prompts = _prompts(suite.document, suite.path, files)
            ids = [_expanded_ids(document, suite.document, prompts) for document in documents]
            return RunSpelling(text, ids, nothing)
        return RunSpelling(text, [[_case_id(document)] for document in documents], nothing)
    if isinstance(generation, Agentv4):
        if today:
            prompts = _prompts(suite.document, suite.path, files)
            down = downgraded_file(suite.document, documents, prompts, generation.label)
            text = _file_text(down.header, TODAY_CASES_KEY, TODAY_CASES_KEY, down.tests)
            return RunSpelling(
                text,
                down.test_ids,
                down.not_run,
                _note(generation, "`tests` with `input`, one test per prompt and value"),
            )
        # A `cases` list (AgentV's spelling for one day) is AgentV 4's `tests` list.
        renamed = [_for_agentv_4(document) for document in documents]
        return RunSpelling(
            _file_text(_for_agentv_4(suite.document), suite.cases_key, TODAY_CASES_KEY, renamed),
            [[_case_id(document)] for document in documents],
            nothing,
            _note(generation, "its `tests` list"),
        )
    return _upgraded(generation, suite, documents, files)


def _upgraded(
    generation: Generation, suite: Suite, documents: list[dict[Any, Any]], files: dict[str, str]
) -> RunSpelling:
    """The suite as Upgrade writes it (eval_files/upgrade.py), its judge templates upgraded
    in place in the run's folder (no suite but this one runs there)."""
    source = MappingFiles(files)
    templates: dict[str, str] = {}
    for value in judge_prompt_values(suite.document, documents):
        resolved = resolve_file(value, suite.path, source).file
        if resolved is not None:
            upgraded_text = upgrade_judge_template(files[resolved.path])
            if upgraded_text != files[resolved.path]:
                templates[resolved.path] = upgraded_text
    mapped = upgrade_eval_file(suite.document, documents, suite.cases_key or None)
    upgraded = [_asserts(document) for document in mapped.documents]
    prompts = _prompts(mapped.header, suite.path, files)
    return RunSpelling(
        _file_text(mapped.header, TODAY_CASES_KEY, TODAY_CASES_KEY, upgraded),
        [_expanded_ids(document, mapped.header, prompts) for document in upgraded],
        [[] for _ in documents],
        _note(generation, "today's format, as Upgrade writes it"),
        templates,
    )


def _asserts(document: Any) -> Any:
    """A test (and its turns) with 2026-02's `assertions` as today's `assert`, each grader
    under today's name (`llm-grader` → `llm-rubric`, …, as Upgrade converts evaluators):
    AgentV 5.3 reads a test's graders under `assert` only, and skips a test it finds none
    in."""
    if not isinstance(document, dict):
        return document
    renamed: dict[Any, Any] = {}
    for key, value in document.items():
        if key == "assertions" and "assert" not in document and isinstance(value, list):
            context = GradingContext({}, [], criteria=document.get("criteria"))
            renamed["assert"] = [
                converted
                for entry in value
                for converted in evaluator_asserts(_code_grader(entry), context)
            ]
        else:
            renamed[key] = value
    if isinstance(renamed.get("turns"), list):
        renamed["turns"] = [_asserts(turn) for turn in renamed["turns"]]
    return renamed


def _code_grader(entry: Any) -> Any:
    """2026-02's `code-grader` is the code evaluator Upgrade converts to `script`."""
    if isinstance(entry, dict) and entry.get("type") == "code-grader":
        return {**entry, "type": "code_grader"}
    return entry


def _file_text(header: Any, cases_key: str, new_key: str, cases: list[Any]) -> str:
    """The YAML file AgentV runs: `header` (its list of cases, under `cases_key`, where it
    was) with `cases` as its list, named `new_key`; the repository's own file is untouched,
    so the app's own writer writes it."""
    document: dict[Any, Any] = {}
    for key, value in (header if isinstance(header, dict) else {}).items():
        if key == cases_key:
            document[new_key] = cases
        elif key != new_key:
            document[key] = value
    document.setdefault(new_key, cases)
    return dump_yaml(document)


def _note(generation: Generation, how: str) -> str:
    return f"Run as {generation.label} reads it: {how}. The suite's file is unchanged."


def _prompts(header: Any, eval_path: str, files: dict[str, str]) -> list[Prompt] | None:
    raw = header.get("prompts") if isinstance(header, dict) else None
    return read_prompts(raw, eval_path=eval_path, files=MappingFiles(files), warnings=[])


def _expanded_ids(
    document: dict[Any, Any], header: dict[Any, Any], prompts: list[Prompt] | None
) -> list[str]:
    """The ids AgentV gives the tests of one case (`opening-hours-{{ language }}` →
    `opening-hours-English`, `opening-hours-French`)."""
    readable = merged(document)
    ids = [
        str(expanded.document.get("id") or _case_id(document))
        for expanded in expand_test(readable, header, prompts)
    ]
    return ids


def _case_id(document: dict[Any, Any]) -> str:
    return str(document.get("id") or document.get("test_id") or "")


def _needs_agentv_4_names(documents: list[dict[Any, Any]]) -> bool:
    return any(_for_agentv_4(document) != document for document in documents)


def _for_agentv_4(value: Any) -> Any:
    """A case (or a file's header) with AgentV 4's names for older parts and graders; a name
    already spelled AgentV 4's way wins over the older one."""
    if not isinstance(value, dict):
        return value
    renamed: dict[Any, Any] = {}
    for key, item in value.items():
        new_key = FOR_AGENTV_4.get(key, key) if isinstance(key, str) else key
        if new_key != key and new_key in value:
            continue
        if key == "execution" and isinstance(item, dict):
            item = {k: _graders(v) if k in GRADER_LISTS else v for k, v in item.items()}
        elif key in GRADER_LISTS:
            item = _graders(item)
        renamed[new_key] = item
    return renamed


def _graders(entries: Any) -> Any:
    if not isinstance(entries, list):
        return entries
    renamed = []
    for entry in entries:
        if isinstance(entry, dict) and entry.get("type") in GRADERS_FOR_AGENTV_4:
            entry = {**entry, "type": GRADERS_FOR_AGENTV_4[entry["type"]]}
        renamed.append(entry)
    return renamed
