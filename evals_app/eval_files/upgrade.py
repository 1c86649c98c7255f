"""An older eval file rewritten as today's AgentV wants it (docs/formats.md, "Upgrading to
today's format").

The mapping of one file: its header (the top-level mapping, each case standing as None) and
its case documents become today's `tests` file, case by case; every key the mapping does not
name stays where it was. What cannot be mapped silently is said in a note.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# What today's AgentV reads under a test's `execution` is one fact, kept with its loader's rules.
from ..formatting.profile_2026.loader_rules import TEST_EXECUTION_KEYS
from .case_parts import CaseParts, split_case
from .dialects import (
    CASES_KEYS,
    EXPECTED_PATHS,
    ID_KEYS,
    INPUT_PATHS,
    OUTCOME_KEYS,
)
from .draft_spelling import respelled_draft
from .errors import EvalFileError
from .grading_upgrade import GradingContext, evaluator_asserts, is_default_judge, rubric_assert

TODAY_CASES_KEY = "tests"
OLDER_CASES_KEYS = tuple(key for key in CASES_KEYS if key != TODAY_CASES_KEY)
INPUT_PROMPTS = ["{{ input }}"]
# The top-level spellings of a case's conversation and expected answer (dialects.py).
INPUT_KEYS = tuple(path[0] for path in INPUT_PATHS if len(path) == 1)
EXPECTED_KEYS = tuple(path[0] for path in EXPECTED_PATHS if len(path) == 1)
# Keys of a header that only older files have: a `tests` file holding one is older too.
OLDER_HEADER_KEYS = ("$schema", "target", "execution", "evaluators")
SKIP_NOTE = "AgentV will skip this test: "


@dataclass
class UpgradedCase:
    """One case as today's AgentV wants it: what changed (`a` → `b`) and notes."""

    case_id: str
    document: dict[Any, Any]
    changes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # The conversation moved to `vars.input`: the file needs a prompt that sends it.
    input_moved: bool = False
    # Why today's AgentV will skip the test: what has no equivalent, kept as it was.
    skips: list[str] = field(default_factory=list)
    # The systems under test it named (`execution.target`): today's file names them all.
    providers: list[Any] = field(default_factory=list)


@dataclass
class UpgradedFile:
    """A file as today's AgentV wants it: its header, its cases, and what changed."""

    header: dict[Any, Any]
    cases: list[UpgradedCase]
    changes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def documents(self) -> list[dict[Any, Any]]:
        """The upgraded case documents, in order."""
        return [case.document for case in self.cases]

    def all_notes(self) -> list[str]:
        """The file's notes, then each case's, named by its id (what AgentV will skip first)."""
        return [
            *self.notes,
            *(
                f"{case.case_id}: {note}"
                for case in self.cases
                for note in [*(SKIP_NOTE + skip for skip in case.skips), *case.notes]
            ),
        ]


def is_older_file(header: Mapping[Any, Any], cases_key: str | None) -> bool:
    """Whether a file is spelled for an older AgentV: an older list of cases, or a `tests` file
    of 2026-02 (no `prompts`, or a key only older files have). A suite formatted by the 2025
    profile is older whatever its spelling (`services/profiles`)."""
    if cases_key in OLDER_CASES_KEYS:
        return True
    if cases_key != TODAY_CASES_KEY:
        return False
    return "prompts" not in header or any(key in header for key in OLDER_HEADER_KEYS)


def upgrade_eval_file(
    header: Mapping[Any, Any],
    cases: list[dict[Any, Any]],
    cases_key: str | None,
    prompt_files: Mapping[str, str] | None = None,
) -> UpgradedFile:
    """Today's file for an older one. `prompt_files` maps each judge prompt that names a
    workspace file (as written) to the path today's file refers to instead (the same path, or
    its upgraded copy's); a prompt that looks like a path but is not in it is kept as a file
    reference, with a note."""
    files = prompt_files or {}
    upgraded = UpgradedFile(header={}, cases=[_upgraded_or_kept(case, files) for case in cases])
    # A prompt that sends `vars.input` as it is: for an older list of cases, or when a
    # conversation moved (a `tests` file of today without `prompts` may need none).
    add_prompts = cases_key in OLDER_CASES_KEYS or any(c.input_moved for c in upgraded.cases)
    default_judges: list[dict[Any, Any]] = []
    upgraded.header = _upgrade_header(
        header, cases_key, add_prompts, files, upgraded.changes, upgraded.notes, default_judges
    )
    _add_test_providers(upgraded)
    if default_judges:
        _give_default_judges(upgraded, cases, default_judges)
    if _file_grading(header):
        _keep_own_grading(upgraded, cases)
    return upgraded


def _file_grading(header: Mapping[Any, Any]) -> bool:
    execution = header.get("execution")
    return "evaluators" in header or (isinstance(execution, dict) and "evaluators" in execution)


def _keep_own_grading(upgraded: UpgradedFile, cases: list[dict[Any, Any]]) -> None:
    """A 2025 case with evaluators of its own was graded by those alone; today's AgentV adds
    the file's asserts to a test's unless it says `execution: {skip_defaults: true}`."""
    for original, case in zip(cases, upgraded.cases, strict=True):
        document = case.document
        if not _own_grading(original) or not isinstance(document, dict):
            continue
        execution = document.get("execution", {})
        if not isinstance(execution, dict) or "skip_defaults" in execution:
            continue
        document["execution"] = {**execution, "skip_defaults": True}
        case.changes.append("`execution: {skip_defaults: true}` added (its own evaluators only)")


def _give_default_judges(
    upgraded: UpgradedFile, cases: list[dict[Any, Any]], judges: list[dict[Any, Any]]
) -> None:
    """The file's llm_judge without a prompt graded each case's criteria; today's AgentV does
    not grade criteria when a file has other asserts, so each case that takes the file's
    evaluators gets that judge as an `llm-rubric` of its criteria."""
    for original, case in zip(cases, upgraded.cases, strict=True):
        if _own_grading(original) or not isinstance(case.document, dict):
            continue
        entries = []
        for judge in judges:
            grading = GradingContext({}, case.notes, case.skips)
            grading.criteria = case.document.get("criteria")
            grading.has_reference = isinstance(case.document.get("vars"), dict) and (
                "expected_output" in case.document["vars"]
            )
            entries.extend(evaluator_asserts(judge, grading))
        case.document["assert"] = entries
        case.changes.append("the file's llm_judge → an `llm-rubric` of the test's criteria")


def _own_grading(document: Mapping[Any, Any]) -> bool:
    execution = document.get("execution")
    return any(key in document for key in ("evaluators", "assert", "rubrics")) or (
        isinstance(execution, dict) and "evaluators" in execution
    )


def _add_test_providers(upgraded: UpgradedFile) -> None:
    """The systems under test the cases named join the file's `providers`: today's AgentV
    selects them there (or on the command line), never per test."""
    named = [provider for case in upgraded.cases for provider in case.providers]
    if not named:
        return
    own = upgraded.header.get("providers")
    providers = list(own) if isinstance(own, list) else ([] if own is None else [own])
    before = list(providers)
    for provider in named:
        if provider not in providers:
            providers.append(provider)
    if providers != before:
        if "providers" not in upgraded.header:
            upgraded.header = _insert_before(upgraded.header, TODAY_CASES_KEY, "providers")
        upgraded.header["providers"] = providers
        upgraded.changes.append("the tests' `execution.target` → `providers`")
    if len(providers) > 1:
        upgraded.notes.append(
            "`providers` names several systems under test: AgentV runs every test against "
            "each (choose one with `agentv eval --target`)"
        )


def _insert_before(header: dict[Any, Any], before: str, key: str) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for name, value in header.items():
        if name == before:
            out[key] = None
        out[name] = value
    out.setdefault(key, None)
    return out


def upgrade_case(
    document: Mapping[Any, Any], prompt_files: Mapping[str, str] | None = None
) -> UpgradedCase:
    """Today's test for an older case (any period's spelling). Raises EvalFileError for a
    case no AgentV would read (eval_files.case_parts.split_case)."""
    document, respelled = respelled_draft(document)
    parts = split_case(dict(document))
    result = UpgradedCase(parts.case_id, {}, changes=respelled)
    _CaseUpgrade(document, parts, prompt_files or {}, result).run()
    return result


def _upgraded_or_kept(document: dict[Any, Any], prompt_files: Mapping[str, str]) -> UpgradedCase:
    """A case no AgentV would read (edited by hand into such a state) stays as it is."""
    try:
        return upgrade_case(document, prompt_files)
    except EvalFileError as error:
        case_id = next((document[key] for key in ID_KEYS if key in document), "(no id)")
        return UpgradedCase(str(case_id), document, notes=[f"not upgraded: {error.message}"])


def _top_level(path: tuple[str, ...]) -> str | None:
    return path[0] if len(path) == 1 else None


class _CaseUpgrade:
    """The rewrite of one case: each key in its place, the mapped ones under today's names."""

    def __init__(
        self,
        document: Mapping[Any, Any],
        parts: CaseParts,
        prompt_files: Mapping[str, str],
        result: UpgradedCase,
    ) -> None:
        self.document = document
        self.id_key = parts.spelling.id_key
        self.prompt_files = prompt_files
        self.result = result
        self.out: dict[Any, Any] = {}
        self.leftovers: dict[Any, Any] = {}
        self.emitted: set[str] = set()
        execution = document.get("execution")
        self.execution = execution if isinstance(execution, dict) else {}
        # Where split_case found each part (read or, in a shape it cannot take apart, kept):
        # a conversation already under `vars` stays where it is.
        spelling, found = parts.spelling, parts.spelling.present | set(parts.unread)
        self.input_key = _top_level(spelling.input_path) if "input" in found else None
        self.expected_key = _top_level(spelling.expected_path) if "expected" in found else None
        self.outcome_key = spelling.outcome_key if "outcome" in found else None

    def run(self) -> None:
        self._plan_leftovers()
        self.groups = {
            "vars": self._vars(),
            "options": self._options(),
            "assert": self._assert(),
        }
        for key, value in self.document.items():
            self._place(key, value)
        if self.leftovers and "metadata" not in self.emitted:
            self._emit("metadata")
        self.result.document = self.out

    def _place(self, key: Any, value: Any) -> None:
        if key == self.id_key:
            if key != "id":
                self.result.changes.append(f"`{key}` → `id`")
            self.out["id"] = value
        elif key == self.outcome_key:
            if key != "criteria":
                self.result.changes.append(f"`{key}` → `criteria`")
            self.out["criteria"] = value
        elif key == "vars" or key in (self.input_key, self.expected_key):
            self._emit("vars")
        elif key == "options":
            self._emit("options")
        elif key == "target":
            self._move_target("target", value)
        elif key in ("assert", "evaluators", "rubrics") and self.groups["assert"] is not None:
            self._emit("assert")
        elif key == "execution":
            self._place_execution(value)
        elif key == "metadata" or key in self.leftovers:
            self._emit("metadata")
        else:
            self.out[key] = value

    def _emit(self, group: str) -> None:
        if group in self.emitted:
            return
        self.emitted.add(group)
        value = self._metadata() if group == "metadata" else self.groups[group]
        if value is not None:
            self.out[group] = value

    def _place_execution(self, value: Any) -> None:
        if not isinstance(value, dict):
            if value is not None:
                self._note_leftover("execution", value, "`execution` is not a mapping")
                self._emit("metadata")
            else:
                self.result.changes.append("`execution` removed (empty)")
            return
        kept: dict[Any, Any] = {}
        for inner, item in value.items():
            if inner == "target":
                self._move_target("execution.target", item)
            elif inner == "evaluators" and isinstance(item, list):
                self._emit("assert")
            elif inner in TEST_EXECUTION_KEYS:
                kept[inner] = item
            elif f"execution.{inner}" not in self.leftovers:
                self.out[inner] = item
                self.result.notes.append(
                    f"`execution.{inner}` moved to the test's top level as `{inner}`"
                )
        if kept:
            # What today's AgentV reads under a test's `execution` stays there.
            self.out["execution"] = kept
            if kept != value:
                self.result.changes.append("`execution` keeps only what AgentV reads there")
        else:
            self.result.changes.append("`execution` removed")

    def _plan_leftovers(self) -> None:
        """Keys that cannot stay where they are nor go where the mapping puts them: a second
        spelling of one part, a moved key whose name is taken. They go under `metadata`."""
        document = self.document
        for keys, chosen in (
            (INPUT_KEYS, self.input_key),
            (EXPECTED_KEYS, self.expected_key),
            (OUTCOME_KEYS, self.outcome_key),
        ):
            for key in keys:
                if key in document and key != chosen:
                    self._note_leftover(key, document[key], f"`{chosen}` is read instead")
        taken = set(document) | {"vars", "options", "assert", "criteria", "id", "metadata"}
        for inner, item in self.execution.items():
            if inner == "evaluators" and not isinstance(item, list):
                self._note_leftover("execution.evaluators", item, "not a list")
            elif inner not in ("target", "evaluators", *TEST_EXECUTION_KEYS) and inner in taken:
                self._note_leftover(f"execution.{inner}", item, f"the test has `{inner}` already")

    def _note_leftover(self, name: str, value: Any, why: str) -> None:
        self.leftovers[name] = value
        self.result.notes.append(f"`{name}` kept as `metadata.{name}` ({why})")

    def _vars(self) -> dict[Any, Any] | None:
        own = self.document.get("vars")
        if self.input_key is None and self.expected_key is None:
            return own if "vars" in self.document else None
        if "vars" in self.document and not isinstance(own, dict):
            self._note_leftover("vars", own, "not a mapping")
            own = {}
        merged = dict(own or {})
        for key, name in ((self.input_key, "input"), (self.expected_key, "expected_output")):
            if key is None:
                continue
            if name in merged:
                self._note_leftover(f"vars.{name}", merged[name], f"`{key}` is read instead")
            merged[name] = self.document[key]
            self.result.changes.append(f"`{key}` → `vars.{name}`")
            self.result.input_moved = self.result.input_moved or name == "input"
        return merged

    def _options(self) -> Any:
        return self.document.get("options") if "options" in self.document else None

    def _move_target(self, name: str, target: Any) -> None:
        """A test's system under test goes to the file's `providers`; `options.provider` is
        today's grader provider, so it is never put there."""
        if target is None:
            self.result.changes.append(f"`{name}` removed (empty)")
            return
        self.result.providers.append(target)
        self.result.changes.append(f"`{name}` → the file's `providers`")

    def _assert(self) -> list[Any] | None:
        """Evaluators, rubrics and asserts in the order the case has them, as asserts."""
        sources: list[tuple[str, Any]] = []
        for key, value in self.document.items():
            if key == "execution" and isinstance(self.execution.get("evaluators"), list):
                sources.append(("execution.evaluators", self.execution["evaluators"]))
            elif key in ("evaluators", "rubrics", "assert"):
                sources.append((key, value))
        if not sources:
            return None
        entries: list[Any] = []
        for name, value in sources:
            if not isinstance(value, list):
                self._note_leftover(name, value, "not a list")
                continue
            if name == "assert":
                entries.extend(value)
                continue
            self.result.changes.append(f"`{name}` → `assert`")
            for item in value:
                if name == "rubrics":
                    entries.append(rubric_assert(item))
                else:
                    entries.extend(evaluator_asserts(item, self.grading))
        return entries

    @property
    def grading(self) -> GradingContext:
        outcome = self.document.get(self.outcome_key) if self.outcome_key else None
        return GradingContext(
            self.prompt_files,
            self.result.notes,
            self.result.skips,
            criteria=outcome,
            has_reference=self.expected_key is not None,
        )

    def _metadata(self) -> Any:
        own = self.document.get("metadata")
        if not self.leftovers:
            return own
        if "metadata" in self.document and not isinstance(own, dict):
            self.result.notes.append("`metadata` is not a mapping: the keys above are dropped")
            return own
        return {**(own or {}), **self.leftovers}


def _upgrade_header(
    header: Mapping[Any, Any],
    cases_key: str | None,
    add_prompts: bool,
    prompt_files: Mapping[str, str],
    changes: list[str],
    notes: list[str],
    default_judges: list[dict[Any, Any]],
) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    execution = header.get("execution")
    execution = execution if isinstance(execution, dict) else {}
    providers = _providers(header, execution, changes)
    asserts = _file_asserts(header, execution, prompt_files, changes, notes, default_judges)

    def emit(key: str, value: Any) -> None:
        if key not in out and value is not None:
            out[key] = value

    for key, value in header.items():
        if key == "$schema":
            changes.append("`$schema` removed")
        elif key == cases_key:
            if add_prompts and "prompts" not in header:
                out["prompts"] = list(INPUT_PROMPTS)
                changes.append('`prompts: ["{{ input }}"]` added')
            if key != TODAY_CASES_KEY:
                changes.append(f"`{key}` → `{TODAY_CASES_KEY}`")
            out[TODAY_CASES_KEY] = value
        elif key in ("target", "providers"):
            emit("providers", providers)
        elif key in ("evaluators", "rubrics", "assert"):
            emit("assert", asserts)
        elif key == "execution":
            _place_file_execution(value, header, out, emit, providers, asserts, changes, notes)
        else:
            out[key] = value
    return out


def _place_file_execution(
    value: Any,
    header: Mapping[Any, Any],
    out: dict[Any, Any],
    emit: Any,
    providers: Any,
    asserts: Any,
    changes: list[str],
    notes: list[str],
) -> None:
    changes.append("`execution` removed")
    if not isinstance(value, dict):
        if value is not None:
            notes.append(f"`execution` is not a mapping; dropped ({value!r})")
        return
    for inner, item in value.items():
        if inner == "target":
            emit("providers", providers)
        elif inner == "evaluators" and isinstance(item, list):
            emit("assert", asserts)
        elif inner in header or inner in out:
            notes.append(f"`execution.{inner}` dropped: the file has `{inner}` already")
        else:
            out[inner] = item
            notes.append(f"`execution.{inner}` moved to the file's top level as `{inner}`")


def _providers(header: Mapping[Any, Any], execution: Mapping[Any, Any], changes: list[str]) -> Any:
    own = header.get("providers")
    targets = [
        (name, source[key])
        for name, source, key in (
            ("target", header, "target"),
            ("execution.target", execution, "target"),
        )
        if key in source
    ]
    if not targets:
        return own
    providers = list(own) if isinstance(own, list) else ([] if own is None else [own])
    for name, target in targets:
        if target not in providers:
            providers.append(target)
        changes.append(f"`{name}` → `providers`")
    return providers


def _file_asserts(
    header: Mapping[Any, Any],
    execution: Mapping[Any, Any],
    prompt_files: Mapping[str, str],
    changes: list[str],
    notes: list[str],
    default_judges: list[dict[Any, Any]],
) -> Any:
    """The file's asserts; an llm_judge without a prompt goes to `default_judges` (given to
    each case when the file has other asserts, else dropped: AgentV then grades criteria)."""
    entries: list[Any] = []
    found = False
    for key, value in header.items():
        if key == "execution" and isinstance(execution.get("evaluators"), list):
            value, name = execution["evaluators"], "execution.evaluators"
        elif key in ("evaluators", "rubrics", "assert"):
            name = key
        else:
            continue
        if not isinstance(value, list):
            notes.append(f"`{name}` is not a list; dropped ({value!r})")
            continue
        found = True
        if name == "assert":
            entries.extend(value)
            continue
        changes.append(f"`{name}` → `assert`")
        for item in value:
            if name == "rubrics":
                entries.append(rubric_assert(item))
            elif is_default_judge(item):
                default_judges.append(item)
            else:
                grading = GradingContext(prompt_files, notes)
                entries.extend(evaluator_asserts(item, grading))
                notes.extend(f"{SKIP_NOTE}{skip} (every test)" for skip in grading.skips)
    if default_judges and not entries:
        # Today's AgentV grades a test's criteria with an llm-rubric when no assert applies
        # to it: what the 2025 default judge did for every case.
        changes.append(
            "the file's llm_judge without a prompt removed: AgentV grades each test's "
            "`criteria` itself"
        )
        default_judges.clear()
        return header.get("assert")
    return entries if found else header.get("assert")
