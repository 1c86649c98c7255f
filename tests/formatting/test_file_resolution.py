"""Resolving file blocks: upward search, the workspace boundary, sources on disk and in memory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evals_app.formatting.profile_2025.formatter import format_case
from evals_app.formatting.workspace_files import (
    DirectoryFiles,
    MappingFiles,
    UndecodableFileError,
    resolve_file,
)
from tests.formatting.factories import file, make_case, message, text

EVAL_PATH = "evals/coding/review.yaml"


def _write(root: Path, path: str, content: str | bytes) -> Path:
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        target.write_bytes(content)
    else:
        target.write_text(content, encoding="utf-8", newline="")
    return target


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "workspace"
    root.mkdir()
    return root


def test_the_eval_files_own_folder_is_tried_first(workspace: Path) -> None:
    _write(workspace, "evals/coding/a.txt", "near")
    _write(workspace, "a.txt", "far")

    resolution = resolve_file("a.txt", EVAL_PATH, DirectoryFiles(workspace))

    assert resolution.file is not None
    assert (resolution.file.path, resolution.file.text) == ("evals/coding/a.txt", "near")
    assert resolution.tried == ("evals/coding/a.txt",)


def test_ancestor_folders_are_searched_up_to_the_root(workspace: Path) -> None:
    _write(workspace, "src/app.js", "let a = 1;")

    resolution = resolve_file("src/app.js", EVAL_PATH, DirectoryFiles(workspace))

    assert resolution.file is not None
    assert resolution.file.path == "src/app.js"
    assert resolution.tried == ("evals/coding/src/app.js", "evals/src/app.js", "src/app.js")


@pytest.mark.parametrize("value", ["/src/app.js", "\\src/app.js", "//\\src/app.js"])
def test_leading_slashes_and_backslashes_are_stripped(workspace: Path, value: str) -> None:
    _write(workspace, "src/app.js", "x")

    resolution = resolve_file(value, EVAL_PATH, DirectoryFiles(workspace))

    assert resolution.display_path == "src/app.js"
    assert resolution.file is not None


def test_dot_dot_inside_the_workspace_resolves(workspace: Path) -> None:
    _write(workspace, "evals/prompts/p.md", "prompt")

    resolution = resolve_file("../prompts/p.md", EVAL_PATH, DirectoryFiles(workspace))

    assert resolution.file is not None
    assert resolution.file.path == "evals/prompts/p.md"


def test_candidates_that_leave_the_root_are_never_tried(tmp_path: Path, workspace: Path) -> None:
    _write(tmp_path, "secret.txt", "outside")

    resolution = resolve_file("../../../secret.txt", EVAL_PATH, DirectoryFiles(workspace))

    assert resolution.file is None
    assert resolution.tried == ()


def test_an_absolute_path_is_read_relative_to_the_root(tmp_path: Path, workspace: Path) -> None:
    outside = _write(tmp_path, "secret.txt", "outside")

    resolution = resolve_file(str(outside), EVAL_PATH, DirectoryFiles(workspace))

    assert resolution.file is None
    assert resolution.display_path == str(outside).lstrip("/")


def test_a_symlink_pointing_outside_the_root_reads_nothing(tmp_path: Path, workspace: Path) -> None:
    outside = _write(tmp_path, "secret.txt", "outside")
    os.symlink(outside, workspace / "link.txt")
    os.symlink(tmp_path, workspace / "up")
    files = DirectoryFiles(workspace)

    assert files.read_text("link.txt") is None
    assert files.read_text("up/secret.txt") is None
    assert resolve_file("link.txt", EVAL_PATH, files).file is None


def test_a_symlink_inside_the_root_is_followed(workspace: Path) -> None:
    target = _write(workspace, "shared/real.txt", "shared text")
    os.symlink(target, workspace / "alias.txt")

    assert DirectoryFiles(workspace).read_text("alias.txt") == "shared text"


def test_folders_and_fifos_are_not_regular_files(workspace: Path) -> None:
    (workspace / "folder.txt").mkdir()
    os.mkfifo(workspace / "pipe.txt")
    files = DirectoryFiles(workspace)

    assert files.read_text("folder.txt") is None
    assert files.read_text("pipe.txt") is None


def test_each_file_is_read_once_per_source(workspace: Path) -> None:
    target = _write(workspace, "a.txt", "first")
    files = DirectoryFiles(workspace)
    assert files.read_text("a.txt") == "first"

    target.write_text("second", encoding="utf-8")

    assert files.read_text("a.txt") == "first"
    assert DirectoryFiles(workspace).read_text("a.txt") == "second"


def test_text_that_is_not_utf8_is_unreadable_and_recorded(workspace: Path) -> None:
    _write(workspace, "latin1.txt", "café".encode("latin-1"))
    files = DirectoryFiles(workspace)

    with pytest.raises(UndecodableFileError):
        files.read_text("latin1.txt")
    with pytest.raises(UndecodableFileError):
        files.read_text("latin1.txt")
    assert files.undecodable == {"latin1.txt"}


def test_undecodable_file_is_dropped_with_a_warning(workspace: Path) -> None:
    _write(workspace, "latin1.txt", "café".encode("latin-1"))
    case = make_case(message("user", [text("Hi"), file("latin1.txt")]))

    formatted = format_case(case, eval_path=EVAL_PATH, files=DirectoryFiles(workspace))

    assert formatted.question == "Hi"
    assert [(w.code, w.section, w.turn) for w in formatted.warnings] == [
        ("undecodable_file", "input", 0)
    ]
    assert formatted.warnings[0].message == (
        'Case "case-1", input message 1: file "latin1.txt" (latin1.txt) is not UTF-8 text; '
        "the block is left out."
    )


@pytest.mark.parametrize("source", ["directory", "mapping"])
def test_crlf_line_ends_become_lf_in_both_sources(workspace: Path, source: str) -> None:
    content = "line 1\r\nline 2\r\n"
    _write(workspace, "a.txt", content)
    files = DirectoryFiles(workspace) if source == "directory" else MappingFiles({"a.txt": content})

    resolution = resolve_file("a.txt", "eval.yaml", files)

    assert resolution.file is not None
    assert resolution.file.text == "line 1\nline 2\n"


def test_missing_file_is_dropped_with_a_warning_naming_the_places_tried() -> None:
    case = make_case(
        message("system", "Be nice."),
        message("user", [text("Review:"), file("/src/gone.js")]),
        case_id="review-js",
    )

    formatted = format_case(case, eval_path=EVAL_PATH, files=MappingFiles({}))

    assert formatted.question == "@[System]:\nBe nice.\n\n@[User]:\nReview:"
    [warning] = formatted.warnings
    assert (warning.code, warning.section, warning.turn) == ("missing_file", "input", 1)
    assert warning.message == (
        'Case "review-js", input message 2: file "src/gone.js" was not found '
        "(tried evals/coding/src/gone.js, evals/src/gone.js, src/gone.js); the block is left out."
    )


def test_missing_file_outside_the_workspace_says_so() -> None:
    case = make_case(message("user", [text("Hi"), file("../../../x.md")]))

    formatted = format_case(case, eval_path=EVAL_PATH, files=MappingFiles({}))

    assert formatted.warnings[0].message == (
        'Case "case-1", input message 1: file "../../../x.md" was not found '
        "(every candidate is outside the workspace); the block is left out."
    )


def test_missing_file_in_expected_messages_is_placed_in_that_section() -> None:
    case = make_case(
        message("user", "Hi"),
        expected=[message("assistant", [text("Yo"), file("answer.md")])],
    )

    formatted = format_case(case, eval_path=EVAL_PATH, files=MappingFiles({}))

    assert [(w.code, w.section, w.turn) for w in formatted.warnings] == [
        ("missing_file", "expected", 0)
    ]
    assert formatted.warnings[0].message.startswith('Case "case-1", expected message 1: ')


def test_guideline_status_comes_from_the_resolved_path() -> None:
    files = MappingFiles({"docs/style.md": "Style.", "evals/coding/style.md": "Local."})
    case = make_case(message("user", [text("Hi"), file("style.md"), file("docs/style.md")]))

    formatted = format_case(case, eval_path=EVAL_PATH, files=files, guideline_patterns=["docs/**"])

    assert formatted.question == (
        'Hi\n\n<file path="style.md">\nLocal.\n</file>\n\n<Attached: docs/style.md>'
    )
    assert formatted.guidelines == '<file path="style.md">\nStyle.\n</file>'


def test_empty_guideline_file_is_left_out_of_the_guidelines_with_a_warning() -> None:
    files = MappingFiles({"g.instructions.md": "\n\n"})
    case = make_case(message("user", [text("Hi"), file("g.instructions.md")]))

    formatted = format_case(case, eval_path="eval.yaml", files=files)

    assert formatted.question == "Hi\n\n<Attached: g.instructions.md>"
    assert formatted.guidelines == ""
    assert [warning.code for warning in formatted.warnings] == ["empty_file"]
