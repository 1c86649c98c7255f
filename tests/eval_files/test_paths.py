"""The one path rule (eval_files/paths.py): what a workspace path may be, at every door."""

from __future__ import annotations

import pytest

from evals_app.eval_files import paths
from evals_app.eval_files.paths import PathError, check_path, is_git_name, shown

ACCEPTED = [
    "evals/suite.eval.yaml",
    "prompts/review.instructions.md",
    ".agentv/config.yaml",
    ".github/workflows/ci.yml",
    "notes/.gitignore",
    "notes/.gitattributes",
    "evals/my.git/x.yaml",
    "évals/données/cas.yaml",
    "evals/日本語.yaml",
    "a name with spaces/inside.md",
    "evals/...yaml",
    "gitmod~5/x.md",
    "n" * 255,
    "/".join(["folder"] * 142) + "/abc.md",  # 1,000 characters
]

REFUSED = [
    ("", paths.REQUIRED),
    ("   ", paths.REQUIRED),
    ("/".join(["folder"] * 142) + "/abcd.md", paths.TOO_LONG),
    ("evals/bad\udcff.yaml", paths.NOT_UTF8),
    ("evals/lone\ud800.yaml", paths.NOT_UTF8),
    ("evals\\suite.yaml", paths.BACKSLASH),
    ("evals/line\nbreak.yaml", paths.INVISIBLE),
    ("evals/escape\x1b[31m.yaml", paths.INVISIBLE),
    ("evals/nul\x00.yaml", paths.INVISIBLE),
    ("evals/delete\x7f.yaml", paths.INVISIBLE),
    ("evals/next line\x85.yaml", paths.INVISIBLE),
    ("evals/cases\u202egnp.yaml", paths.INVISIBLE),
    ("evals/zero\u200bwidth.yaml", paths.INVISIBLE),
    ("evals/\ufeffbom.yaml", paths.INVISIBLE),
    ("evals/line\u2028separator.yaml", paths.INVISIBLE),
    ("evals/paragraph\u2029separator.yaml", paths.INVISIBLE),
    ("/etc/passwd", paths.ABSOLUTE),
    (" evals/suite.yaml", paths.SPACES),
    ("evals /suite.yaml", paths.SPACES),
    ("evals/suite.yaml\u00a0", paths.SPACES),
    ("evals/../../../../tmp/x.yaml", paths.DOTS),
    ("../x.yaml", paths.DOTS),
    ("./evals/x.yaml", paths.DOTS),
    ("evals/./x.yaml", paths.DOTS),
    ("evals//x.yaml", paths.EMPTY_NAME),
    ("evals/", paths.EMPTY_NAME),
    (".git/config", paths.GIT_FOLDER),
    (".GIT/config", paths.GIT_FOLDER),
    (".Git/HEAD", paths.GIT_FOLDER),
    ("evals/.git/hooks/x", paths.GIT_FOLDER),
    ("evals/.git", paths.GIT_FOLDER),
    (".git./config", paths.GIT_FOLDER),
    (".git.../config", paths.GIT_FOLDER),
    ("git~1/config", paths.GIT_FOLDER),
    ("GIT~1/config", paths.GIT_FOLDER),
    (".git:stream/config", paths.GIT_FOLDER),
    (".gitmodules", paths.GIT_FOLDER),
    ("sub/.GitModules", paths.GIT_FOLDER),
    (".gitmodules.", paths.GIT_FOLDER),
    ("gitmod~1", paths.GIT_FOLDER),
    ("gi7eba~9", paths.GIT_FOLDER),
    ("evals/" + "n" * 256, paths.NAME_TOO_LONG),
    ("evals/" + "é" * 128 + ".md", paths.NAME_TOO_LONG),  # 259 bytes in 131 characters
]


def named(path: str) -> str:
    return shown(path)[:60]


@pytest.mark.parametrize("path", ACCEPTED, ids=named)
def test_the_path_rule_accepts_a_plain_relative_path(path: str) -> None:
    assert check_path(path) == path


@pytest.mark.parametrize(("path", "message"), REFUSED, ids=[named(p) for p, _ in REFUSED])
def test_the_path_rule_refuses_with_what_is_wrong_and_the_path(path: str, message: str) -> None:
    with pytest.raises(PathError) as refused:
        check_path(path)

    assert refused.value.message == message
    assert refused.value.path == path


@pytest.mark.parametrize(
    ("name", "git_name"),
    [
        (".git", True),
        (".gIt. . .", True),
        ("git~1", True),
        (".gitmodules", True),
        ("GITMOD~4", True),
        ("gi7eb~12", True),
        ("~1234567", True),  # NTFS's short name with no letter left
        (".github", False),
        (".gitx", False),
        ("git", False),
        ("git~2", False),
        ("gitmod~5", False),
        ("gi7eba~1x", False),
    ],
)
def test_git_names_are_those_git_reads_as_its_own(name: str, git_name: bool) -> None:
    assert is_git_name(name) is git_name


@pytest.mark.parametrize(
    ("path", "seen"),
    [
        ("evals/a.yaml", "evals/a.yaml"),
        ("evals/bad\udcff.yaml", "evals/bad\\xff.yaml"),
        ("evals/line\nbreak\x1b.yaml", "evals/line\\x0abreak\\x1b.yaml"),
        ("evals/cases\u202egnp.yaml", "evals/cases\\u202egnp.yaml"),
        ("évals/日本語.yaml", "évals/日本語.yaml"),
    ],
)
def test_a_path_is_shown_with_its_invisible_characters_and_bytes_escaped(
    path: str, seen: str
) -> None:
    assert shown(path) == seen


def test_a_refusal_names_the_path_as_shown() -> None:
    with pytest.raises(PathError) as refused:
        check_path("evals/bad\x1b.yaml")

    assert str(refused.value) == f"evals/bad\\x1b.yaml: {paths.INVISIBLE}"
