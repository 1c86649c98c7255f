"""Settings read from the environment fail loudly on bad values (agentv_web/settings.py)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from agentv_web.settings import env_int


@pytest.mark.parametrize(("value", "expected"), [(None, 1024), ("", 1024), (" 2048 ", 2048)])
def test_env_int_reads_a_whole_number_or_falls_back_to_the_default(
    monkeypatch: pytest.MonkeyPatch, value: str | None, expected: int
) -> None:
    if value is None:
        monkeypatch.delenv("AGENTV_TEST_NUMBER", raising=False)
    else:
        monkeypatch.setenv("AGENTV_TEST_NUMBER", value)

    assert env_int("AGENTV_TEST_NUMBER", 1024, minimum=1) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1MB", "expected a whole number"),
        ("0", "expected at least 1"),
        ("2000", "expected at most 1999"),
    ],
)
def test_env_int_refuses_what_is_not_a_usable_number(
    monkeypatch: pytest.MonkeyPatch, value: str, message: str
) -> None:
    monkeypatch.setenv("AGENTV_TEST_NUMBER", value)

    with pytest.raises(ImproperlyConfigured, match=message):
        env_int("AGENTV_TEST_NUMBER", 1024, minimum=1, maximum=1999)
