"""The AgentV profiles behind one interface (services/profiles): which profile a file gets, which
suites are older, and how a new suite of each profile looks."""

from __future__ import annotations

from typing import Any

import pytest

from evals_app.eval_files.reading import read_eval_file
from evals_app.eval_files.yaml_dumper import dump_yaml
from evals_app.models import Suite
from evals_app.services.profiles import (
    PROFILES,
    SuiteProfile,
    profile_for_file,
    profile_named,
    profile_of,
)


@pytest.mark.parametrize(
    ("cases_key", "word"),
    [
        ("evalcases", "2025"),
        ("eval_cases", "2025"),
        ("cases", "2025"),
        ("tests", "2026"),
        (None, "2026"),  # a YAML list, JSONL or CSV file of cases
        ("", "2026"),
    ],
)
def test_a_file_gets_its_profile_by_the_spelling_of_its_cases(
    cases_key: str | None, word: str
) -> None:
    assert profile_for_file(cases_key).word == word


@pytest.mark.parametrize("profile", PROFILES, ids=lambda profile: profile.word)
def test_a_suite_is_formatted_by_the_profile_it_stores(profile: SuiteProfile) -> None:
    assert profile_of(Suite(profile=profile.name)) is profile


def test_a_profile_name_no_profile_has_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="agentv-1999"):
        profile_named("agentv-1999")


@pytest.mark.parametrize(
    ("profile", "document", "cases_key", "file_format", "older"),
    [
        ("agentv-2025", {"evalcases": []}, "evalcases", "yaml", True),
        ("agentv-2025", {"prompts": ["{{ input }}"], "tests": []}, "tests", "yaml", True),
        ("agentv-2025", {}, "", "csv", False),  # a CSV file's cases are read-only
        ("agentv-2026", {"cases": []}, "cases", "yaml", True),
        ("agentv-2026", {"tests": []}, "tests", "yaml", True),  # 2026-02: no prompts yet
        ("agentv-2026", {"prompts": ["{{ input }}"], "tests": []}, "tests", "yaml", False),
        ("agentv-2026", {}, "", "jsonl", False),
        ("agentv-2026", {}, "", "csv", False),
    ],
)
def test_which_suites_are_older(
    profile: str, document: dict[str, Any], cases_key: str, file_format: str, older: bool
) -> None:
    suite = Suite(profile=profile, document=document, cases_key=cases_key, file_format=file_format)

    assert profile_of(suite).is_older(suite) is older


@pytest.mark.parametrize("profile", PROFILES, ids=lambda profile: profile.word)
def test_a_new_suite_reads_back_as_an_empty_file_of_its_profile(profile: SuiteProfile) -> None:
    new = profile.new_suite()

    contents = read_eval_file(dump_yaml(new.document))

    assert (contents.cases_key, contents.cases) == (new.cases_key, [])
    assert profile_for_file(contents.cases_key) is profile


def test_only_the_2025_profile_calls_a_new_suite_older() -> None:
    older = {}
    for profile in PROFILES:
        new = profile.new_suite()
        suite = Suite(profile=profile.name, document=new.document, cases_key=new.cases_key)
        older[profile.word] = profile.is_older(suite)

    assert older == {"2025": True, "2026": False}
