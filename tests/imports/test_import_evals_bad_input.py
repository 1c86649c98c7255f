"""What no AgentV would read is refused by `import_evals` (exit 1, a located message, the
database exactly as it was); what some AgentV read is imported with a located warning."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
from django.core.management import execute_from_command_line
from django.db import connections

from evals_app.eval_files import yaml_loader
from evals_app.formatting.guideline_patterns import MAX_PATTERN_LENGTH
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
        "$schema: agentv-eval-v2\ndescription: x\n",
        1,
        "claims to be an eval file (`$schema`) but has no list of cases",
        id="missing-evalcases",
    ),
    pytest.param("tests: 3\n", 1, "tests: must be a list of cases, not int 3", id="cases-a-number"),
    pytest.param(
        HEADER + "  - just text\n",
        3,
        "evalcases[0]: a case must be a mapping, not the text 'just text'",
        id="case-not-a-mapping",
    ),
    pytest.param(
        HEADER + "  - file://more.yaml\n",
        3,
        "evalcases[0]: a case must be a mapping",
        id="reference-in-an-old-list",
    ),
    pytest.param(
        HEADER + "  - outcome: ok\n    input_messages:\n      - {role: user, content: hi}\n",
        3,
        "evalcases[0].id: a case id is required",
        id="missing-id",
    ),
    pytest.param(
        HEADER + "  - id: 7\n    outcome: ok\n    input_messages:\n"
        "      - {role: user, content: hi}\n",
        3,
        "evalcases[0].id: a case id must be text, not the number 7 (write it quoted: '7')",
        id="id-not-a-string",
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
        "case 'c1': input_messages[0].role: unknown role 'robot'",
        id="unknown-role",
    ),
    pytest.param(
        "tests:\n  - id: t1\n    input:\n      - content: hi\n",
        4,
        "case 't1': input[0].role: a message needs a role",
        id="message-without-role",
    ),
    pytest.param(
        "tests:\n  - id: t1\n    input: [hi]\n",
        3,
        "case 't1': input[0]: a message must be a mapping",
        id="message-not-a-mapping",
    ),
    pytest.param(
        "tests:\n  - test_id: t1\n    input: hi\n  - test_id: t1\n    input: hi\n",
        4,
        "case 't1': test_id: duplicate case id",
        id="duplicate-test-ids",
    ),
    pytest.param(
        "tests:\n  - id: t1\n    vars:\n      input:\n        - role: robot\n"
        "          content: hi\n",
        5,
        "case 't1': vars.input[0].role: unknown role 'robot'",
        id="unknown-role-in-vars-input",
    ),
    pytest.param(
        "cases:\n  - criteria: ok\n    input: hi\n",
        2,
        "cases[0].id: a case id is required",
        id="missing-id-in-cases",
    ),
    pytest.param(
        'tests:\n  - id: t1\n    input: "h\\0i"\n',
        3,
        "case 't1': input: text cannot hold NUL characters",
        id="nul-in-a-value",
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
    pytest.param(
        HEADER + "  - id: ok\n    outcome: ok\n    input_messages: hi\n"
        "  - id: " + "x" * 201 + "\n    outcome: ok\n    input_messages: hi\n",
        6,
        f"case '{'x' * 60}…': id: a case id can be at most 200 characters long (this one has 201)",
        id="id-longer-than-the-column",
    ),
]

# What some AgentV read is imported, with a warning that names the file, the case and the field
# (docs/formats.md, "What is refused, and what is not").
WARNED_FILES = [
    pytest.param(
        "$schema: agentv-eval-v1\nevalcases: []\n",
        "$schema: unknown $schema version 'agentv-eval-v1'",
        id="unknown-schema-version",
    ),
    pytest.param(
        HEADER + "  - id: c1\n    input_messages:\n      - {role: user, content: hi}\n",
        "nothing to grade against",
        id="missing-outcome",
    ),
    pytest.param(
        HEADER + "  - id: c1\n    outcome: [a]\n    input_messages:\n"
        "      - {role: user, content: hi}\n",
        "the outcome (criteria) is not text",
        id="outcome-not-text",
    ),
    pytest.param(
        HEADER + "  - id: c1\n    outcome: ok\n",
        "case 'c1': input: the case has no conversation",
        id="missing-conversation",
    ),
    pytest.param(
        HEADER + CASE.replace("input_messages:\n", "input_messages: []\n"),
        "case 'c1': input_messages: the conversation is empty",
        id="empty-conversation",
    ),
    pytest.param(
        HEADER + CASE + "      - role: user\n",
        "case 'c1': input_messages: input message 1 has no content",
        id="message-without-content",
    ),
    pytest.param(
        HEADER + CASE + "      - role: user\n        content:\n          - value: x\n",
        "block 1 (a mapping) is not formatted",
        id="block-without-type",
    ),
    pytest.param(
        HEADER + CASE + "      - role: user\n        content:\n          - type: text\n",
        "text block 1 has no text value (empty)",
        id="block-without-value",
    ),
    pytest.param(
        HEADER + CASE + "      - role: user\n        content:\n          - type: text\n"
        "            value: 12\n",
        "text block 1 has no text value (the number 12, which YAML reads as a number",
        id="block-value-a-number",
    ),
    pytest.param(
        HEADER + CASE + "      - role: user\n        content: {question: hi}\n",
        "the content is a mapping, which this profile does not format",
        id="content-a-mapping",
    ),
    pytest.param(
        HEADER + "  - id: ' c1'\n    outcome: ok\n    input_messages:\n"
        "      - {role: user, content: hi}\n",
        "id: the id has spaces at its start or end",
        id="id-with-spaces",
    ),
    pytest.param(
        HEADER + "  - id: c1\n    outcome: ok\n    input_messages: {role: user, content: hi}\n",
        "case 'c1': input_messages: `input_messages` is a mapping, not a list of messages: "
        "AgentV skips this case",
        id="input-messages-a-mapping",
    ),
]


# What AgentV of some period read and the app once refused: each imports now (the list of
# old refusals; docs/formats.md, "What is refused, and what is not").
ONCE_REFUSED_FILES = [
    pytest.param(
        "evalcases:\n  - id: c1\n    outcome: ok\n    input_messages:\n"
        "      - {role: user, content: hi}\n",
        id="no-schema-line",
    ),
    pytest.param(
        "evalcases:\n  - id: c1\n    expected_outcome: ok\n    input: hi\n",
        id="expected-outcome",
    ),
    pytest.param(
        "cases:\n  - id: c1\n    criteria: ok\n    input: hi\n    rubrics:\n"
        "      - id: r\n        score_ranges: {0: none, 3: some, 5: all}\n",
        id="score-ranges-integer-keys",
    ),
    pytest.param(
        "tests:\n  - id: c1\n    criteria: ok\n    input:\n      - role: user\n"
        "        content: {question: hi}\n",
        id="content-a-mapping",
    ),
    pytest.param(
        "tests:\n  - id: c1\n    criteria: ok\n    input: hi\n    expected_output:\n"
        "      - role: assistant\n        tool_calls:\n"
        "          - {tool: search, input: {q: hi}, output: [1]}\n",
        id="expected-answer-a-tool-call",
    ),
    pytest.param(
        "eval_cases:\n  - id: c1\n    expected_outcome: ok\n    input: hi\n"
        "    evaluators:\n      - {name: s, type: code, script: [python, check.py]}\n",
        id="script-an-argv-list",
    ),
    pytest.param(
        "tests:\n  - test_id: c1\n    criteria: ok\n    input: hi\n"
        "    assert: [Says hi, {type: contains, value: hi}]\n",
        id="test-id-and-assert",
    ),
]


@pytest.mark.parametrize("content", ONCE_REFUSED_FILES)
def test_what_an_older_agentv_read_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    write_files(tmp_path / "ws", {"evals/old.yaml": content, "governance.yml": "a: 1\na: 2\n"})

    status = run_import(str(tmp_path / "ws"), "--workspace", "lenient")

    out = capsys.readouterr().out
    assert status == 0
    assert "1 suites, 1 cases" in out


@pytest.mark.parametrize(("content", "message"), WARNED_FILES)
def test_what_some_agentv_read_is_imported_with_a_located_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    eval_file = tmp_path / "ws" / "evals" / "old.yaml"
    eval_file.parent.mkdir(parents=True)
    eval_file.write_text(content)

    status = run_import(str(eval_file), "--workspace", "lenient")

    out = capsys.readouterr().out
    assert status == 0
    assert "warning: " in out and "old.yaml" in out
    assert message in out


def test_an_imported_file_with_warnings_exports_as_it_came(tmp_path: Path) -> None:
    source = HEADER + CASE + "      - role: user\n        content:\n          - type: text\n"
    write_files(tmp_path / "ws", {"evals/old.yaml": source})
    run_import(str(tmp_path / "ws"), "--workspace", "lenient")

    export_folder = tmp_path / "out"
    with mock.patch.object(connections, "close_all"):
        execute_from_command_line(["manage.py", "export_evals", "--out", str(export_folder)])

    exported = (export_folder / "lenient" / "evals/old.yaml").read_text()
    assert yaml_loader.load_yaml(exported).data == yaml_loader.load_yaml(source).data


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
    monkeypatch.setattr("evals_app.eval_files.file_trees.MAX_BYTES", 1000)
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
        {"a.yaml": "evalcases: [7]\n", "b.yml": "$schema: x\nevalcases: 3\n"},
    )

    assert run_import(str(tmp_path / "ws")) == 1

    stderr = capsys.readouterr().err
    assert "a.yaml:1: evalcases[0]: a case must be a mapping" in stderr
    assert "b.yml:2: evalcases: must be a list of cases" in stderr
    assert "(2 errors)" in stderr


def test_yaml_that_does_not_parse_is_skipped_when_it_is_not_an_eval_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(
        tmp_path / "ws",
        {
            "evals/ok.yaml": HEADER + CASE + "      - {role: user, content: hi}\n",
            "governance.yml": "owner: a\nowner: b\n",
            "ci.yml": "jobs: [unclosed\n",
        },
    )

    assert run_import(str(tmp_path / "ws")) == 0

    out = capsys.readouterr().out
    assert "skipped: ci.yml: not valid YAML" in out
    assert "skipped: governance.yml: duplicate key 'owner' in one mapping" in out
    assert "1 suites, 1 cases" in out


@pytest.mark.parametrize("name", ["evals/broken.eval.yaml", "EVAL.yaml", "evals/x/suite.yaml"])
def test_yaml_named_like_an_eval_file_that_does_not_parse_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    write_files(
        tmp_path / "ws",
        {"evals/ok.yaml": HEADER + CASE + "      - {role: user, content: hi}\n", name: "a: [\n"},
    )

    assert run_import(str(tmp_path / "ws")) == 1
    assert f"{name}:2:1: not valid YAML" in capsys.readouterr().err


def test_folder_without_eval_file_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(tmp_path / "ws", {"ci.yml": "jobs: {}\n", "notes.md": "# notes\n"})

    assert run_import(str(tmp_path / "ws")) == 1
    stderr = capsys.readouterr().err
    assert "no eval file found" in stderr
    assert "skipped: ci.yml (not an eval file)" in stderr


def test_missing_path_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_import(str(tmp_path / "nowhere")) == 1
    assert "no such file or folder" in capsys.readouterr().err


def test_an_invalid_config_is_skipped_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_files(
        tmp_path / "ws",
        {
            "evals/ok.yaml": HEADER + CASE + "      - {role: user, content: hi}\n",
            ".agentv/config.yaml": "$schema: agentv-config-v2\nguideline_patterns: '*.md'\n",
        },
    )

    assert run_import(str(tmp_path / "ws")) == 0
    out = capsys.readouterr().out
    assert ".agentv/config.yaml: invalid config, skipped: must be a list of glob strings" in out


def test_a_config_with_an_invalid_pattern_is_skipped_with_a_warning_naming_it(
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

    assert run_import(str(tmp_path / "ws")) == 0
    out = capsys.readouterr().out
    assert (
        ".agentv/config.yaml: invalid config, skipped: Invalid guideline pattern 'docs/[z-a].md'"
        in (out)
    )


def test_a_config_beyond_the_pattern_limits_is_skipped_with_a_warning_naming_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The worker-stalling attack (docs/security.md), shortened: many ranges in one long pattern.
    pattern = "**/*[" + "0-0" * 200 + "]*d"
    write_files(
        tmp_path / "ws",
        {
            "evals/ok.yaml": HEADER + CASE + "      - {role: user, content: hi}\n",
            ".agentv/config.yaml": "$schema: agentv-config-v2\n"
            f"guideline_patterns: ['**/*.md', '{pattern}']\n",
        },
    )

    assert run_import(str(tmp_path / "ws")) == 0
    out = capsys.readouterr().out
    assert (
        ".agentv/config.yaml: invalid config, skipped: pattern 2: a guideline pattern can be "
        f"at most {MAX_PATTERN_LENGTH} characters (this one has {len(pattern)})" in out
    )


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
