"""A suite's settings: the top-level fields of its eval file (everything but the list of cases),
edited as YAML, its `prompts` edited one by one, and the profile that formats its cases.

Each changes how the suite's cases format (file-level evaluators, the prompts, the profile's
rules), so each change marks the cases' stored summaries out of date and is recorded in the
activity feed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from ...eval_files.dialects import CASES_KEYS
from ...eval_files.errors import EvalFileError
from ...eval_files.json_text import encode_json
from ...eval_files.yaml_dumper import dump_yaml
from ...eval_files.yaml_loader import load_yaml
from ...formatting.profile_2026.expansion import prompt_entries
from ...models import ActivityRecord, Suite
from ..cases.summaries import mark_suites_stale
from ..profiles import profile_named, profile_of
from ..workspaces.activity import record_activity
from .prompts import PromptRow, entries_of


def has_fields(suite: Suite) -> bool:
    """Whether the suite's file has top-level fields: a YAML mapping does; a YAML list, JSONL
    or CSV file of cases holds nothing but its cases."""
    return suite.file_format == "yaml"


def suite_fields(suite: Suite) -> dict[Any, Any]:
    """The file's top-level fields in their order, without the list of cases."""
    return {key: value for key, value in suite.document.items() if key != suite.cases_key}


def fields_text(suite: Suite) -> str:
    """The top-level fields as YAML, as the export writes them ("" when there are none)."""
    fields = suite_fields(suite)
    return dump_yaml(fields) if fields else ""


def read_fields(text: str, cases_key: str) -> dict[Any, Any]:
    """The fields a person typed: a YAML mapping (empty text is no fields) that does not hold a
    list of cases. Raises EvalFileError, with its line where known, otherwise.

    The YAML is read as eval files are (`load_yaml`: core tags only, bounded nesting and alias
    expansion), so what is stored is what an import of the exported file reads back.
    """
    loaded = load_yaml(text, track_lines=True)
    data = loaded.data
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise EvalFileError(
            "the fields must be a YAML mapping (`key: value` lines), not a list or a value",
            line=1,
        )
    for key in data:
        # Any spelling of the list of cases would be read as the file's list on the next import.
        if key == cases_key or key in CASES_KEYS:
            raise EvalFileError(
                f"`{key}` is a list of cases: cases are edited on the suite page, not here",
                line=loaded.line_of((key,)),
                field=str(key),
            )
    return data


def arranged_document(document: dict[Any, Any], cases_key: str, fields: dict[Any, Any]) -> dict:
    """`fields` in their typed order with the list of cases of `document` kept in its place:
    just before the first field that followed it in `document`, or last when none did."""
    if cases_key not in document:
        return dict(fields)
    keys = list(document)
    followed = set(keys[keys.index(cases_key) + 1 :])
    typed = list(fields)
    place = next((index for index, key in enumerate(typed) if key in followed), len(typed))
    arranged = {key: fields[key] for key in typed[:place]}
    arranged[cases_key] = document[cases_key]
    arranged.update((key, fields[key]) for key in typed[place:])
    return arranged


def edit_suite_fields(suite: Suite, text: str, actor: User | None = None) -> str:
    """Replace the top-level fields of `suite`'s file with those of the YAML `text`; returns
    what changed in words ("" when nothing did, and then nothing is saved).

    Raises EvalFileError when `text` is not a mapping of fields (see `read_fields`).
    """
    fields = read_fields(text, suite.cases_key)
    with transaction.atomic():
        locked = Suite.objects.select_for_update().get(pk=suite.pk)
        before = suite_fields(locked)
        document = arranged_document(locked.document, locked.cases_key, fields)
        if _same(document, locked.document):
            return ""
        changes = _changes(before, fields)
        _store_document(locked, document, changes, actor)
    suite.document = document
    return changes


def _store_document(
    locked: Suite, document: dict[Any, Any], changes: str, actor: User | None
) -> None:
    """Save the new top-level fields of `locked` (a suite row locked for update) and record
    the change. The fields reach how every case formats (file-level evaluators, `prompts`,
    `default_test`), in a file of cases this file refers to (`tests: file://cases.jsonl`) too:
    their stored summaries are out of date."""
    locked.document = document
    locked.save(update_fields=["document", "updated_at"])
    referring = Q(workspace_id=locked.workspace_id, referenced_by=locked.path)
    mark_suites_stale(Suite.objects.filter(Q(pk=locked.pk) | referring), locked.workspace_id)
    action = ActivityRecord.Action.SUITE_EDITED
    record_activity(locked.workspace_id, actor, action, locked.path, changes, suite=locked)


PROMPTS_KEY = "prompts"


def shows_prompts(suite: Suite) -> bool:
    """Whether the settings page edits the suite's `prompts` one by one: a YAML file formatted
    by a profile that runs each test once per prompt, or one that has `prompts` already
    (docs/formatting.md, "The AgentV 2026 profile", step 1)."""
    return has_fields(suite) and (profile_of(suite).expands_tests or PROMPTS_KEY in suite.document)


def with_prompts(document: dict[Any, Any], cases_key: str, entries: list[Any]) -> dict[Any, Any]:
    """`document` with `entries` as its `prompts`: in the key's place, or just before the list of
    cases when it had none. The same `document` when the entries are the prompts it holds.

    No entries remove the key only when it held prompts (the user removed them all: AgentV then
    sends each test's input as it is); a missing, null or empty `prompts` stays as it was.
    """
    stored = document.get(PROMPTS_KEY)
    if not entries:
        if stored is None or stored == []:
            return document
        return {key: value for key, value in document.items() if key != PROMPTS_KEY}
    if PROMPTS_KEY in document:
        # A stored value of another shape (one string, a chat array) is kept as written while
        # its entries are unchanged.
        if stored is not None and _same(prompt_entries(stored), entries):
            return document
        return {**document, PROMPTS_KEY: entries}
    arranged: dict[Any, Any] = {}
    for key, value in document.items():
        if key == cases_key:
            arranged[PROMPTS_KEY] = entries
        arranged[key] = value
    arranged.setdefault(PROMPTS_KEY, entries)
    return arranged


def edit_suite_prompts(suite: Suite, rows: Sequence[PromptRow], actor: User | None = None) -> str:
    """Replace the `prompts` of `suite`'s file with those of the Prompts card's `rows`; returns
    what changed in words ("" when nothing did, and then nothing is saved or recorded).

    Raises EvalFileError, naming the prompt and the line, when a prompt's YAML does not parse
    (see `prompt_rows.entries_of`); nothing is saved then.
    """
    if not has_fields(suite):
        raise EvalFileError(f"A {suite.file_format} file holds only its cases: no prompts.")
    entries = entries_of(rows)
    with transaction.atomic():
        locked = Suite.objects.select_for_update().get(pk=suite.pk)
        document = with_prompts(locked.document, locked.cases_key, entries)
        if _same(document, locked.document):
            return ""
        if PROMPTS_KEY not in document:
            changes = "prompts removed"
        else:
            count = len(entries)
            verb = "changed" if PROMPTS_KEY in locked.document else "added"
            changes = f"prompts {verb} ({count} prompt{'s' * (count != 1)})"
        _store_document(locked, document, changes, actor)
    suite.document = document
    return changes


def change_profile(suite: Suite, profile: str, actor: User | None = None) -> bool:
    """Format `suite`'s cases by `profile` from now on; False when it already does. Raises
    ValueError for a name no profile has."""
    profile = profile_named(profile).name
    with transaction.atomic():
        locked = Suite.objects.select_for_update().get(pk=suite.pk)
        before = profile_of(locked).name
        if before == profile:
            return False
        locked.profile = profile
        locked.save(update_fields=["profile", "updated_at"])
        mark_suites_stale(Suite.objects.filter(pk=locked.pk), locked.workspace_id)
        action = ActivityRecord.Action.PROFILE_CHANGED
        detail = f"from {before} to {profile}"
        record_activity(locked.workspace_id, actor, action, locked.path, detail, suite=locked)
    suite.profile = profile
    return True


def _changes(before: dict[Any, Any], after: dict[Any, Any]) -> str:
    """`description changed; target added; name removed`, or that only the order changed."""
    said = [
        f"{key} changed" for key in after if key in before and not _same(before[key], after[key])
    ]
    said += [f"{key} added" for key in after if key not in before]
    said += [f"{key} removed" for key in before if key not in after]
    return "; ".join(said) or "fields reordered"


def _same(one: Any, other: Any) -> bool:
    """Equal as stored: key order counts, and `1`, `1.0` and `true` are three values."""
    return encode_json(one) == encode_json(other)
