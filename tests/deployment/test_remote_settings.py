"""The settings of remotes stop the app at start when they are wrong (docs/configuration.md),
without printing a key."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.security.test_production_settings import production_environment, run_python


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("AGENTV_CREDENTIALS_KEY", "not-a-fernet-key-SECRET", "expected a Fernet key"),
        ("AGENTV_REPOSITORY_PROTOCOLS", "https,ext", "expected some of https, ssh, file, git"),
    ],
)
def test_a_bad_remote_setting_stops_the_app_naming_the_variable(
    tmp_path: Path, variable: str, value: str, message: str
) -> None:
    environment = production_environment(tmp_path, **{variable: value})

    result = run_python(["manage.py", "check"], environment)

    assert result.returncode != 0
    assert f"{variable}" in result.stderr and message in result.stderr
    assert "SECRET" not in result.stderr
