"""Upgrading a workspace's older suites to today's format, after showing what that changes
(docs/formats.md, "Upgrading to today's format").

`plan_upgrade` writes nothing: per case the YAML and the formatted question before (the
suite's profile) and after (AgentV 2026), and the judge templates it would change.
`upgrade_suites` applies the same plan in one transaction: each changed case gets a new
revision (an approval is dismissed, as for any edit), each suite its new header and profile.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from ...eval_files.case_parts import split_case
from ...eval_files.errors import EvalFileError
from ...eval_files.faithful_writing import rename_top_level_key
from ...eval_files.grading_upgrade import judge_prompt_values
from ...eval_files.json_text import encode_json
from ...eval_files.judge_templates import copy_path, upgrade_judge_template
from ...eval_files.upgrade import TODAY_CASES_KEY
from ...eval_files.upgrade import upgrade_eval_file as map_eval_file
from ...eval_files.yaml_dumper import dump_yaml
from ...formatting.workspace_files import MappingFiles, resolve_file
from ...models import ActivityRecord, Case, Suite, Workspace
from ..cases.editing import save_case
from ..cases.reading import stored_cases
from ..cases.summaries import mark_suites_stale
from ..exports.suite_texts import read_digest, suite_file_text
from ..jobs.progress import Progress, no_progress
from ..profiles import profile_2026, profile_of
from ..profiles.workspace_formatter import WorkspaceFormatter
from ..workspaces.activity import record_activity
from ..workspaces.files import create_file, update_file

REVISION_SUMMARY = "upgraded to today's format"


@dataclass(frozen=True)
class TemplateChange:
    """A judge template the upgrade rewrites: in place, or as a copy beside it when suites
    that are not upgraded use it too."""

    source: str
    path: str
    before: str
    after: str

    @property
    def copied(self) -> bool:
        """Whether the change goes to a copy, leaving `source` as it is."""
        return self.path != self.source


@dataclass
class CaseUpgrade:
    """One case before and after, as the preview shows it."""

    case: Case
    after: dict[Any, Any]
    changes: list[str]
    notes: list[str]
    # Why today's AgentV will skip the upgraded test (what has no equivalent today).
    skips: list[str] = field(default_factory=list)
    yaml_before: str = ""
    yaml_after: str = ""
    question_before: str = ""
    question_after: str = ""
    # The 2025 formatting sent guideline files apart; today's sends their text inline.
    guidelines_inline: bool = False
    # What today's formatting warns about the upgraded test (e.g. a judge template's
    # {{expected_output}} that no longer receives the reference answer).
    warnings_after: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether the case's document changes."""
        return self.after != self.case.document


@dataclass
class SuiteUpgrade:
    """One suite before and after: its header, its cases, what changed and the notes."""

    suite: Suite
    header: dict[Any, Any]
    changes: list[str]
    notes: list[str]
    cases: list[CaseUpgrade] = field(default_factory=list)

    @property
    def header_yaml_before(self) -> str:
        return dump_yaml(self.suite.document) if self.suite.document else ""

    @property
    def header_yaml_after(self) -> str:
        return dump_yaml(self.header) if self.header else ""

    @property
    def guideline_cases(self) -> list[CaseUpgrade]:
        """The cases whose guideline files now reach the model inline."""
        return [case for case in self.cases if case.guidelines_inline]

    @property
    def changed_cases(self) -> list[CaseUpgrade]:
        return [case for case in self.cases if case.changed]


@dataclass
class UpgradePlan:
    """What upgrading some suites of a workspace changes."""

    workspace: Workspace
    suites: list[SuiteUpgrade]
    templates: list[TemplateChange]


class UpgradeError(Exception):
    """A suite that cannot be upgraded (e.g. a CSV file of cases, which is read-only)."""


def older_suites(workspace: Workspace) -> list[Suite]:
    """The suites of `workspace` written for an older AgentV, by path."""
    suites = workspace.suites.order_by("path")
    return [suite for suite in suites if profile_of(suite).is_older(suite)]


def plan_upgrade(
    workspace: Workspace, suites: Iterable[Suite], *, formatted: bool = True
) -> UpgradePlan:
    """What upgrading `suites` (of `workspace`) changes; writes nothing. With `formatted`,
    each case's YAML and formatted question before and after are filled in."""
    chosen = list(suites)
    for suite in chosen:
        if suite.read_only:
            raise UpgradeError(f"{suite.path} is a CSV file of cases, which is read-only")
    files = workspace.file_texts()
    documents = {suite.pk: _case_rows(suite) for suite in chosen}
    prompt_paths, templates = _template_plan(workspace, chosen, documents, files)
    plan = UpgradePlan(workspace, [], templates)
    for suite in chosen:
        cases = documents[suite.pk]
        mapped = map_eval_file(
            suite.document,
            [case.document for case in cases],
            suite.cases_key or None,
            prompt_paths[suite.pk],
        )
        upgrade = SuiteUpgrade(suite, mapped.header, mapped.changes, mapped.notes)
        for case, mapped_case in zip(cases, mapped.cases, strict=True):
            upgrade.cases.append(
                CaseUpgrade(
                    case,
                    mapped_case.document,
                    mapped_case.changes,
                    mapped_case.notes,
                    mapped_case.skips,
                )
            )
        plan.suites.append(upgrade)
    if formatted:
        _format(plan, files)
    return plan


def upgrade_suites(
    workspace: Workspace,
    suites: Iterable[Suite],
    actor: User | None,
    *,
    formatted: bool = False,
    progress: Progress = no_progress,
) -> UpgradePlan:
    """Upgrade `suites` of `workspace` in one transaction and return what changed (with
    `formatted`, the plan as the preview shows it, formatting included); `progress` hears of
    each suite upgraded (docs/jobs.md)."""
    with transaction.atomic():
        locked = list(
            Suite.objects.select_for_update()
            .filter(pk__in=[suite.pk for suite in suites])
            .order_by("path")
        )
        plan = plan_upgrade(workspace, locked, formatted=formatted)
        _write_templates(workspace, plan.templates, actor)
        for index, upgrade in enumerate(plan.suites):
            progress(index, len(plan.suites), "suites upgraded")
            _apply(upgrade, actor)
    return plan


def _apply(upgrade: SuiteUpgrade, actor: User | None) -> None:
    suite = upgrade.suite
    formatting_before = (suite.profile, encode_json(suite.document))
    for case in upgrade.changed_cases:
        save_case(case.case, case.after, case.case.version, actor, REVISION_SUMMARY)
    suite.document = upgrade.header
    if suite.cases_key and suite.source_text is not None:
        # The list of cases keeps its lines (and their comments) under its new key.
        renamed = rename_top_level_key(suite.source_text, suite.cases_key, TODAY_CASES_KEY)
        suite.source_text = renamed
    if suite.cases_key:
        suite.cases_key = TODAY_CASES_KEY
    suite.profile = profile_2026.PROFILE.name
    update_fields = ["document", "cases_key", "profile", "updated_at"]
    if suite.source_text is not None:
        # The one operation that may rewrite a file: its new text, with each comment of a
        # key it keeps, is what the suite is written from next (so the next edit is small).
        cases = [case.document for case in stored_cases(suite.cases.all())]
        suite.source_text = suite_file_text(suite, cases)
        suite.source_digest = read_digest(suite.source_text, suite.file_format)
        update_fields += ["source_text", "source_digest"]
    suite.save(update_fields=update_fields)
    if (suite.profile, encode_json(suite.document)) != formatting_before:
        # Every case now formats by today's rules, changed or not.
        mark_suites_stale(Suite.objects.filter(pk=suite.pk), suite.workspace_id)
    count = len(upgrade.changed_cases)
    detail = f"to today's format ({count} case{'s' * (count != 1)} changed)"
    action = ActivityRecord.Action.SUITE_UPGRADED
    record_activity(suite.workspace_id, actor, action, suite.path, detail, suite=suite)


def _write_templates(
    workspace: Workspace, templates: list[TemplateChange], actor: User | None
) -> None:
    for template in templates:
        existing = workspace.files.filter(path=template.path).first()
        if existing is None:
            create_file(workspace, template.path, template.after, actor)
        elif existing.text != template.after:
            update_file(existing, template.path, template.after, actor)


def _case_rows(suite: Suite) -> list[Case]:
    return list(suite.cases.order_by("position"))


def _template_plan(
    workspace: Workspace,
    suites: list[Suite],
    documents: dict[int, list[Case]],
    files: dict[str, str],
) -> tuple[dict[int, dict[str, str]], list[TemplateChange]]:
    """Per suite, each judge prompt (as written) that names a workspace file, and the path its
    upgraded file refers to; and the templates that change."""
    source = MappingFiles(files)
    found: dict[int, dict[str, str]] = {}  # suite → written prompt → workspace path
    for suite in suites:
        cases = [case.document for case in documents[suite.pk]]
        found[suite.pk] = {}
        for value in judge_prompt_values(suite.document, cases):
            resolved = resolve_file(value, suite.path, source).file
            if resolved is not None:
                found[suite.pk][value] = resolved.path
    used = {path for paths in found.values() for path in paths.values()}
    changed = {path: upgrade_judge_template(files[path]) for path in sorted(used)}
    changed = {path: text for path, text in changed.items() if text != files[path]}
    shared = _used_elsewhere(workspace, {suite.pk for suite in suites}, set(changed), source)
    templates = [
        TemplateChange(path, copy_path(path) if path in shared else path, files[path], text)
        for path, text in changed.items()
    ]
    moved = {template.source: template.path for template in templates if template.copied}
    prompt_paths = {
        pk: {
            value: _beside(value, moved[path]) if path in moved else value
            for value, path in paths.items()
        }
        for pk, paths in found.items()
    }
    return prompt_paths, templates


def _used_elsewhere(
    workspace: Workspace, upgraded: set[int], paths: set[str], source: MappingFiles
) -> set[str]:
    """Which of `paths` a suite that is not being upgraded uses as a judge template."""
    if not paths:
        return set()
    used: set[str] = set()
    for suite in workspace.suites.exclude(pk__in=upgraded):
        cases = [case.document for case in stored_cases(suite.cases.all())]
        for value in judge_prompt_values(suite.document, cases):
            resolved = resolve_file(value, suite.path, source).file
            if resolved is not None and resolved.path in paths:
                used.add(resolved.path)
    return used


def _beside(written: str, copy: str) -> str:
    """The reference to a template's copy, written as the reference to the template was
    (`judges/grade.md` → `judges/grade.v2026.md`): it resolves the same way."""
    folder = written.rsplit("/", 1)[0] + "/" if "/" in written else ""
    return folder + copy.rsplit("/", 1)[-1]


def _format(plan: UpgradePlan, files: dict[str, str]) -> None:
    before = WorkspaceFormatter(plan.workspace)
    before.file_texts = files
    after = WorkspaceFormatter(plan.workspace)
    after.file_texts = {**files, **{t.path: t.after for t in plan.templates}}
    for upgrade in plan.suites:
        # An unsaved copy of the suite as it will be, formatted by the 2026 rules.
        upgraded = Suite(
            workspace=plan.workspace,
            path=upgrade.suite.path,
            document=upgrade.header,
            cases_key=TODAY_CASES_KEY if upgrade.suite.cases_key else "",
            file_format=upgrade.suite.file_format,
            profile=profile_2026.PROFILE.name,
        )
        for case in upgrade.cases:
            case.yaml_before = dump_yaml(case.case.document)
            case.yaml_after = dump_yaml(case.after)
            case.question_before, guidelines = _question(before, case.case.document, upgrade.suite)
            case.guidelines_inline = bool(guidelines)
            case.question_after, case.warnings_after = _question_2026(after, case.after, upgraded)


def _question_2026(
    formatter: WorkspaceFormatter, document: dict[Any, Any], suite: Suite
) -> tuple[str, list[str]]:
    """The formatted question (`lm` mode) of an upgraded test by the 2026 rules, and what they
    warn about; a test that expands to several shows each one's question under its id."""
    tests = formatter.format_tests(document, suite, "lm")
    warnings = list(dict.fromkeys(w.message for test in tests for w in test.warnings))
    if len(tests) == 1:
        return tests[0].question, warnings
    return "\n\n".join(f"# {test.id}\n{test.question}" for test in tests), warnings


def _question(
    formatter: WorkspaceFormatter, document: dict[Any, Any], suite: Suite
) -> tuple[str, str]:
    """The formatted question (`lm` mode) and the guidelines of a case of `suite`."""
    try:
        formatted = formatter.format_parts(split_case(document), suite)
    except EvalFileError as error:
        return f"(cannot be formatted: {error.message})", ""
    return formatted.question, formatted.guidelines
