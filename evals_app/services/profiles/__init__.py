"""The AgentV profiles, and the one place that reads which one formats a suite.

Each profile is a module behind the interface of `base.SuiteProfile`; callers ask the suite's
profile (`profile_of`) instead of naming one. AgentV's next format is one more module and one
more entry in `PROFILES` (docs/formatting.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from ...models import Suite, Workspace
from . import profile_2025, profile_2026
from .base import FileReading, FormattedTexts, NewSuite, SuiteProfile, Summary

__all__ = [
    "DEFAULT",
    "PROFILES",
    "FileReading",
    "FormattedTexts",
    "NewSuite",
    "SuiteProfile",
    "Summary",
    "new_suite_profiles",
    "profile_for_file",
    "profile_named",
    "profile_of",
    "suite_profiles",
    "writes_todays_format",
]

# Oldest first.
PROFILES: tuple[SuiteProfile, ...] = (profile_2025.PROFILE, profile_2026.PROFILE)
_BY_NAME: dict[str, SuiteProfile] = {profile.name: profile for profile in PROFILES}
# The profile of a suite made in the app: today's (docs/user-guide.md, "Workspaces and
# suites"). The model field's default stays the 2025 profile.
DEFAULT: SuiteProfile = PROFILES[-1]


def profile_named(name: str) -> SuiteProfile:
    """The profile stored as `name`. Raises ValueError for a name no profile has."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"Unknown profile {name!r}.") from None


def profile_of(suite: Suite) -> SuiteProfile:
    """The profile that formats `suite`'s cases."""
    return profile_named(suite.profile)


def suite_profiles(workspace: Workspace) -> dict[str, SuiteProfile]:
    """The profile of each suite of `workspace`, by path (one query)."""
    stored = workspace.suites.values_list("path", "profile")
    return {path: profile_named(name) for path, name in stored}


def new_suite_profiles(suites: Iterable[Suite]) -> list[SuiteProfile]:
    """The profiles a new suite beside `suites` (a workspace's) may be written in: today's
    first, then the other periods they are in, newest first."""
    used = {suite.profile for suite in suites}
    others = [profile for profile in reversed(PROFILES) if profile.name in used]
    return [DEFAULT, *(profile for profile in others if profile is not DEFAULT)]


def profile_for_file(cases_key: str | None) -> SuiteProfile:
    """The profile a file gets when first read, by the spelling of its list of cases: a file
    without one (a YAML list, JSONL or CSV of cases) is read as today's."""
    key = cases_key or PROFILES[-1].cases_keys[0]
    return next((profile for profile in PROFILES if key in profile.cases_keys), PROFILES[0])


def writes_todays_format(suite: Suite) -> bool:
    """Whether `suite` is a file in today's format (upgraded, or made so): what is written into
    it must use today's spellings (docs/formats.md, "Upgrading to today's format")."""
    profile = profile_of(suite)
    return profile is PROFILES[-1] and not suite.read_only and not profile.is_older(suite)
