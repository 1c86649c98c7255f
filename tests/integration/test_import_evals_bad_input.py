"""Every bad input of EVAL_YAML.md is refused by `import_evals`: exit 1, a located message,
and the database exactly as it was."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from django.core.management import execute_from_command_line
from django.db import connections

from evals_app.formatting import yaml_loader
from evals_app.models import Workspace
from tests.factories import database_snapshot, imported_workspace, write_files

pytestmark = pytest.mark.django_db

HEADER = "$schema: agentv-eval-v2\nevalcases:\n"
CASE = "  - id: c1\n    outcome: ok\n    input_messages:\n"


def run_import(*args: str) -> int:
    """Run the command as a user would; return its exit status."""
    # A command closes every database connection when it ends (BaseCommand.run_from_argv). On
    # PostgreSQL or an SQLite file that would end the test's transaction (only an in-memory
    # database ignores it), so the connection is kept open.
    with mock.patch.object(connections, "close_all"):
        try:
            execute_from_command_line(["manage.py", "import_evals", *args])
        except SystemExit as exit_:
            return int(exit_.code or 0)
    return 0


@pytest.fixture
def existing(tmp_path: Path) -> dict[str, list[tuple[object, ...]]]:
    """A workspace already in the database, so 'unchanged' means something."""
    write_files(
        tmp_path / "existing",
        {"evals/a.yaml": HEADER + CASE + "      - role: user\n        content: hi\n"},
    )
    imported_workspace(tmp_path / "existing", name="bad")
    return database_snapshot()


BAD_FILES = [
    pytest.param("a: [1, 2\nb: c\n", 2, "not valid YAML", id="not-yaml"),
    pytest.param("- just\n- a list\n", None, "not a YAML mapping", id="not-a-mapping"),
    pytest.param(
        "$schema: agentv-eval-v1\nevalcases: []\n",
        1,
        "$schema: is 'agentv-eval-v1'",
        id="wrong-schema",
    ),
    pytest.param("evalcases: []\n", None, "$schema: is missing", id="missing-schema"),
    pytest.param(
        "$schema: agentv-eval-v2\ndescription: x\n", None, "no `evalcases:`", id="missing-evalcases"
    ),
    pytest.param(
        HEADER + "  - just text\n", 3, "evalcases[0]: must be a mapping", id="case-not-a-mapping"
    ),
    pytest.param(
        HEADER + "  - outcome: ok\n    input_messages:\n      - {role: user, content: hi}\n",
        3,
        "evalcases[0].id: is required",
        id="missing-id",
    ),
    pytest.param(
        HEADER + "  - id: 7\n    outcome: ok\n    input_messages:\n"
        "      - {role: user, content: hi}\n",
        3,
        "evalcases[0].id: must be a string",
        id="id-not-a-string",
    ),
    pytest.param(
        HEADER + "  - id: c1\n    input_messages:\n      - {role: user, content: hi}\n",
        3,
        "case 'c1': outcome: is required",
        id="missing-outcome",
    ),
    pytest.param(
        HEADER + "  - id: c1\n    outcome: [a]\n    input_messages:\n"
        "      - {role: user, content: hi}\n",
        4,
        "case 'c1': outcome: must be a string",
        id="outcome-not-a-string",
    ),
    pytest.param(
        HEADER + "  - id: c1\n    outcome: ok\n",
        3,
        "input_messages: is required",
        id="missing-input-messages",
    ),
    pytest.param(
        HEADER + CASE.replace("input_messages:\n", "input_messages: []\n"),
        5,
        "input_messages: must be a non-empty list",
        id="empty-input-messages",
    ),
    pytest.param(
        HEADER
        + CASE
        + "      - {role: user, content: hi}\n"
        + CASE
        + "      - {role: user, content: hi}\n",
        7,
        "case 'c1': id: duplicate case id",
        id="duplicate-case-ids",
    ),
    pytest.param(HEADER + "  - id: c1\n    id: c2\n", 4, "duplicate key 'id'", id="repeated-key"),
    pytest.param(
        HEADER + CASE + "      - role: robot\n        content: hi\n",
        6,
        "input_messages[0].role: unknown role 'robot'",
        id="unknown-role",
    ),
    pytest.param(
        HEADER + CASE + "      - role: user\n",
        6,
        "input_messages[0].content: is required",
        id="message-without-content",
    ),
    pytest.param(
        HEADER + CASE + "      - role: user\n        content:\n          - value: x\n",
        8,
        "input_messages[0].content[0].type: is required",
        id="block-without-type",
    ),
    pytest.param(
        HEADER + CASE + "      - role: user\n        content:\n          - type: text\n",
        8,
        "input_messages[0].content[0].value: is required",
        id="block-without-value",
    ),
    pytest.param(
        HEADER + CASE + "      - role: user\n        content:\n          - type: text\n"
        "            value: 12\n",
        9,
        "content[0].value: must be a string",
        id="block-value-not-a-string",
    ),
    pytest.param(
        HEADER + "  - !!python/object/apply:os.system [echo hi]\n",
        3,
        "unsupported tag !!python/object/apply:os.system",
        id="python-tag",
    ),
    pytest.param(
        HEADER + CASE + "      - role: user\n        content: !secret hi\n",
        7,
        "unsupported tag !secret",
        id="unknown-tag",
    ),
    pytest.param(
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{n}: &{n} [{', '.join([f'*{p}'] * 10)}]\n"
            for p, n in zip("abcdefgh", "bcdefghi", strict=True)
        ),
        None,
        "aliases expand to more than",
        id="billion-laughs",
    ),
    pytest.param(
        "a: " + "[" * 10_000 + "]" * 10_000 + "\n", 1, "nested deeper than", id="over-deep"
    ),
    pytest.param(
        b"$schema: agentv-eval-v2\nevalcases:\n  - id: \xe9t\xe9\n", 3, "not UTF-8", id="not-utf8"
    ),
]


@pytest.mark.parametrize(("content", "line", "message"), BAD_FILES)
def test_bad_eval_file_is_refused_with_its_location_and_nothing_written(
    tmp_path: Path,
    existing: dict[str, list[tuple[object, ...]]],
    capsys: pytest.CaptureFixture[str],
    content: str | bytes,
    line: int | None,
    message: str,
) -> None:
    eval_file = tmp_path / "ws" / "evals" / "broken.yaml"
    eval_file.parent.mkdir(parents=True)
    if isinstance(content, str):
        content = content.encode()
    eval_file.write_bytes(content)

    status = run_import(str(eval_file), "--workspace", "bad")

    stderr = capsys.readouterr().err
    location = "broken.yaml" + (f":{line}:" if line else ":")
    assert status == 1
    assert location in stderr
    assert message in stderr
    assert "Traceback" not in stderr
    assert "nothing was written" in stderr
    assert database_snapshot() == existing


def test_over_large_file_is_refused_before_it_is_read(
    tmp_path: Path,
    existing: dict[str, list[tuple[object, ...]]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("evals_app.services.importing.MAX_BYTES", 1000)
    write_files(tmp_path / "ws", {"evals/big.yaml": HEADER + "# padding\n" * 200})

    status = run_import(str(tmp_path / "ws"), "--workspace", "bad")

    assert status == 1
    assert "evals/big.yaml: file is larger than the limit" in capsys.readouterr().err
    assert database_snapshot() == existing


def test_loader_refuses_over_large_text_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_loader, "MAX_BYTES", 10)
    with pytest.raises(yaml_loader.EvalFileError, match="larger than the limit"):
        yaml_loader.load_yaml(b"key: a value longer than ten bytes\n")


def test_one_bad_file_in_a_folder_refuses_the_whole_import(
    tmp_path: Path,
    existing: dict[str, list[tuple[object, ...]]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    write_files(
        tmp_path / "ws",
        {
            "evals/good.yaml": HEADER + CASE + "      - {role: user, content: hi}\n",
            "evals/nested/bad.yaml": HEADER + CASE + "      - {role: robot, content: hi}\n",
        },
    )

    status = run_import(str(tmp_path / "ws"), "--workspace", "bad")

    assert status == 1
    assert "evals/nested/bad.yaml:6: case 'c1'" in capsys.readouterr().err
    assert database_snapshot() == existing


def test_every_bad_file_of_a_folder_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(
        tmp_path / "ws",
        {"a.yaml": "$schema: nope\nevalcases: []\n", "b.yml": "evalcases: 3\n$schema: x\n"},
    )

    assert run_import(str(tmp_path / "ws")) == 1

    stderr = capsys.readouterr().err
    assert "a.yaml:1: $schema" in stderr
    assert "b.yml:2: $schema" in stderr
    assert "(2 errors)" in stderr


def test_yaml_that_does_not_parse_is_an_error_even_when_it_is_not_an_eval_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(
        tmp_path / "ws",
        {
            "evals/ok.yaml": HEADER + CASE + "      - {role: user, content: hi}\n",
            "ci.yml": "jobs: [unclosed\n",
        },
    )

    assert run_import(str(tmp_path / "ws")) == 1
    assert "ci.yml:2: not valid YAML" in capsys.readouterr().err


def test_folder_without_eval_file_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(tmp_path / "ws", {"ci.yml": "jobs: {}\n", "notes.md": "# notes\n"})

    assert run_import(str(tmp_path / "ws")) == 1
    assert "no eval file found" in capsys.readouterr().err


def test_missing_path_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_import(str(tmp_path / "nowhere")) == 1
    assert "no such file or folder" in capsys.readouterr().err


def test_bad_workspace_config_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(
        tmp_path / "ws",
        {
            "evals/ok.yaml": HEADER + CASE + "      - {role: user, content: hi}\n",
            ".agentv/config.yaml": "$schema: agentv-config-v2\nguideline_patterns: '*.md'\n",
        },
    )

    assert run_import(str(tmp_path / "ws")) == 1
    assert ".agentv/config.yaml: guideline_patterns: must be a list" in capsys.readouterr().err


def test_an_invalid_guideline_pattern_in_the_config_is_an_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(
        tmp_path / "ws",
        {
            "evals/ok.yaml": HEADER + CASE + "      - {role: user, content: hi}\n",
            ".agentv/config.yaml": "$schema: agentv-config-v2\n"
            "guideline_patterns: ['**/*.md', 'docs/[z-a].md']\n",
        },
    )

    assert run_import(str(tmp_path / "ws")) == 1
    error = capsys.readouterr().err
    assert ".agentv/config.yaml: guideline_patterns: Invalid guideline pattern 'docs/[z-a].md'" in (
        error
    )
    assert not Workspace.objects.exists()


def test_missing_referenced_file_is_a_warning_not_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(
        tmp_path / "ws",
        {
            "evals/a.yaml": HEADER
            + CASE
            + "      - role: user\n        content:\n          - {type: file, value: gone.md}\n"
            + "          - {type: text, value: Read it}\n"
        },
    )

    assert run_import(str(tmp_path / "ws")) == 0

    out = capsys.readouterr().out
    assert 'file "gone.md" was not found' in out
    assert "1 suites, 1 cases, 0 files, 1 warnings" in out
