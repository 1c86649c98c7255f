"""Byte-faithful writing (docs/sync.md): untouched files come back as read, an edit changes only
its lines, and whatever is written reads back as the documents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evals_app.eval_files.discovery import discover
from evals_app.eval_files.faithful_writing import rewrite_eval_file
from evals_app.eval_files.reading import read_eval_file
from tests.conftest import EXAMPLES
from tests.eval_files.faithful_checks import check_file, stored

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

FILE = """\
# Suite comment
description:   "My suite"   # trailing comment
defaults: &defaults
  threshold: 0.8

tests:
  # about a
  - id: a
    criteria: |
      The answer
      is 42.
    input:
      - role: user
        content: 'hello there'   # greeting
    # a commented-out key
    expected_output: &answer
      - role: assistant
        content: "42"

  - id: b
    <<: *defaults
    criteria: >-
      folded
      text
    input: [{role: user, content: hi}]
    expected_output: *answer

  - id: c
    criteria: plain words
    input: hello
"""


def write(original: str, edit: Any = None, header_edit: Any = None, fmt: str = "yaml") -> str:
    contents = read_eval_file(original.removeprefix("\ufeff"), file_format=fmt)  # type: ignore[arg-type]
    header, cases = stored(contents)
    if edit is not None:
        edit(cases)
    if header_edit is not None:
        header_edit(header)
    written = rewrite_eval_file(original, header, cases, contents.format, contents.cases_key)
    again = read_eval_file(written.removeprefix("\ufeff"), file_format=fmt)  # type: ignore[arg-type]
    assert stored(again)[1] == cases
    return written


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    return [line for line in old if line not in new], [line for line in new if line not in old]


@pytest.mark.parametrize(
    "original",
    [
        FILE,
        FILE.replace("\n", "\r\n"),
        FILE.rstrip("\n"),
        "\ufeff" + FILE,
        "- id: a\n  criteria: x   # c\n\n- id: b\n  tags: [a, b]\n",
        '{"id": "a", "x": "é"}\n\n{"id":"b","x":"\\u00e9"}',
    ],
    ids=["comments-anchors", "crlf", "no-final-newline", "bom", "yaml-list", "jsonl"],
)
def test_untouched_file_comes_back_byte_for_byte(original: str) -> None:
    fmt = "jsonl" if original.startswith("{") else "yaml"
    assert write(original, fmt=fmt) == original


@pytest.mark.parametrize(
    ("edit", "removed", "added"),
    [
        (
            lambda cs: cs[0]["input"][0].update(content="bye"),
            ["        content: 'hello there'   # greeting\n"],
            ["        content: 'bye'   # greeting\n"],
        ),
        (
            lambda cs: cs[2].update(criteria="other words"),
            ["    criteria: plain words\n"],
            ["    criteria: other words\n"],
        ),
        (
            lambda cs: cs[0].update(criteria="New\nanswer\n"),
            ["      The answer\n", "      is 42.\n"],
            ["      New\n", "      answer\n"],
        ),
        (
            lambda cs: cs[1].update(criteria="f2"),
            ["      folded\n", "      text\n"],
            ["      f2\n"],
        ),
        (
            lambda cs: cs[1]["input"][0].update(content="yo"),
            ["    input: [{role: user, content: hi}]\n"],
            ["    input: [{role: user, content: yo}]\n"],
        ),
        (
            lambda cs: cs[2].update(criteria="it's: odd"),
            ["    criteria: plain words\n"],
            ['    criteria: "it\'s: odd"\n'],
        ),
    ],
    ids=[
        "quoted-keeps-quote-and-comment",
        "plain",
        "literal-block",
        "folded-strip",
        "flow",
        "plain-to-quoted",
    ],
)
def test_a_changed_value_changes_only_its_lines_in_its_style(
    edit: Any, removed: list[str], added: list[str]
) -> None:
    assert changed_lines(FILE, write(FILE, edit)) == (removed, added)


def test_a_deleted_case_takes_its_lines_and_leading_comment() -> None:
    written = write(FILE, lambda cs: cs.pop(2))
    assert written == FILE[: FILE.index("\n  - id: c")]


def test_a_deleted_case_holding_an_anchor_writes_its_aliases_in_full() -> None:
    written = write(FILE, lambda cs: cs.pop(0))
    assert "# about a" not in written and "*answer" not in written
    assert "  - id: c\n    criteria: plain words\n    input: hello\n" in written


def test_a_new_case_is_written_like_its_neighbours() -> None:
    written = write(
        FILE, lambda cs: cs.append({"id": "d", "criteria": "two\nlines", "input": "no"})
    )
    assert (
        written == FILE + '\n  - id: d\n    criteria: |-\n      two\n      lines\n    input: "no"\n'
    )


def test_a_reordered_case_moves_its_lines_with_its_comment() -> None:
    written = write(FILE, lambda cs: cs.insert(0, cs.pop(2)))
    assert written.index("  - id: c") < written.index("  # about a") < written.index("  - id: a")
    assert FILE.count("\n") == written.count("\n")


def test_a_changed_top_level_key_changes_only_its_line() -> None:
    written = write(FILE, header_edit=lambda header: header.update(description="Other"))
    assert changed_lines(FILE, written) == (
        ['description:   "My suite"   # trailing comment\n'],
        ['description:   "Other"   # trailing comment\n'],
    )


@pytest.mark.parametrize("ending", ["\r\n", "\n"])
def test_crlf_and_missing_final_newline_are_kept_on_edit(ending: str) -> None:
    original = ending.join(["tests:", "- id: a", "  criteria: x", "- id: b", "  criteria: y"])
    written = write(original, lambda cs: cs.append({"id": "c", "criteria": "z"}))
    assert written == original + ending + ending.join(["- id: c", "  criteria: z"])


def test_a_last_value_that_needs_a_line_break_adds_only_that_break() -> None:
    # A `|` block at the end of a file without a final line break could not hold "\n".
    original = "# kept\ntests:\n- id: a\n  vars: &shared {a: 1}"
    written = write(original, lambda cs: cs[0].update({"metadata": {"owner": ":\n"}}))
    assert written == original + "\n  metadata:\n    owner: |\n      :\n"


def test_a_jsonl_edit_rewrites_one_line_in_the_files_spacing() -> None:
    original = '{"id":"a","x":"\\u00e9"}\r\n\r\n{"id":"b","x":1}\r\n'
    written = write(original, lambda cs: (cs[1].update(x="ö"), cs.append({"id": "c"})), fmt="jsonl")
    assert written == '{"id":"a","x":"\\u00e9"}\r\n\r\n{"id":"b","x":"\\u00f6"}\r\n{"id":"c"}\r\n'


def test_a_bom_is_kept_on_edit() -> None:
    written = write("\ufeff" + FILE, lambda cs: cs[2].update(criteria="x"))
    assert written.startswith("\ufeff# Suite comment\n")


@pytest.mark.parametrize("folder", [EXAMPLES, FIXTURES], ids=["examples", "fixtures"])
def test_every_file_of_the_projects_own_folders_round_trips_and_edits_minimally(
    folder: Path,
) -> None:
    found = discover(folder)
    checked = 0
    for eval_file in found.eval_files:
        if eval_file.contents.format == "csv":
            continue
        original = (folder / eval_file.path).read_bytes().decode("utf-8")
        check = check_file(original, eval_file.contents.format)
        assert check.identical, eval_file.path
        assert check.edit_problem is None, (eval_file.path, check.edit_problem)
        checked += 1
    assert checked >= 5


# Real-shaped files: random styles, comments, anchors, blank lines and line endings.
STYLED = {
    "plain": "plain words",
    "single": "'it''s quoted'",
    "double": '"say \\"hi\\""',
    "literal": "|\n{pad}line one\n{pad}line two",
    "strip": "|-\n{pad}kept text",
    "folded": ">\n{pad}folded\n{pad}words",
}
values = st.text(alphabet="ab :#'\"-é\n", max_size=12)


@st.composite
def eval_files(draw: Any) -> tuple[str, list[str]]:
    """A file of `tests` and the text of each case's block (comment lines included)."""
    offset = draw(st.sampled_from(["", "  "]))
    blank = draw(st.sampled_from(["", "\n"]))
    count = draw(st.integers(min_value=1, max_value=5))
    blocks: list[str] = []
    for index in range(count):
        style = draw(st.sampled_from(sorted(STYLED)))
        pad = offset + "    "
        criteria = STYLED[style].format(pad=pad)
        lines = [f"{offset}- id: case-{index}", f"{offset}  criteria: {criteria}"]
        if draw(st.booleans()):
            lines.append(f"{offset}  # note on case {index}")
        if draw(st.booleans()):
            lines += [
                f"{offset}  input:",
                f"{offset}    - role: user",
                f"{offset}      content: hi {index}  # says hi",
            ]
        else:
            lines.append(f"{offset}  input: [{{role: user, content: hi {index}}}]")
        if index == 0:
            lines.append(f"{offset}  vars: &shared {{a: 1}}")
        elif draw(st.booleans()):
            lines.append(
                f"{offset}  <<: *shared" if draw(st.booleans()) else f"{offset}  vars: *shared"
            )
        blocks.append("\n".join(lines) + "\n")
    text = "# header comment\ndescription: Shaped   # why\ntests:\n" + blank.join(blocks)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    return text, blocks


@settings(max_examples=60, deadline=None)
@given(eval_files())
def test_untouched_shaped_files_are_identical(drawn: tuple[str, list[str]]) -> None:
    original, _ = drawn
    assert write(original) == original


@settings(max_examples=150, deadline=None)
@given(eval_files(), st.data())
def test_random_edits_read_back_and_keep_what_they_did_not_touch(
    drawn: tuple[str, list[str]], data: Any
) -> None:
    original, blocks = drawn
    crlf = "\r\n" in original
    contents = read_eval_file(original)
    header, cases = stored(contents)
    index = data.draw(st.integers(min_value=0, max_value=len(cases) - 1))
    kind = data.draw(st.sampled_from(["string", "key", "delete", "add", "reorder"]))
    edited = {index}
    if kind == "string":
        cases[index]["criteria"] = data.draw(values)
    elif kind == "key":
        cases[index]["metadata"] = {"owner": data.draw(values)}
    elif kind == "delete":
        cases.pop(index)
    elif kind == "add":
        cases.insert(index, {"id": "new", "criteria": data.draw(values)})
        edited = set()
    else:
        cases.append(cases.pop(index))
    written = rewrite_eval_file(original, header, cases, "yaml", "tests")
    assert stored(read_eval_file(written))[1] == cases
    uses_alias = any("*shared" in block for block in blocks)
    for number, block in enumerate(blocks):
        if number in edited or (uses_alias and kind in ("delete", "reorder") and index == 0):
            continue
        if crlf:
            block = block.replace("\n", "\r\n")
        assert block.rstrip("\r\n") in written
    deleted = blocks[index] if kind == "delete" else ""
    for line in original.splitlines():
        if line.strip().startswith("#") and line.strip() not in deleted:
            assert line in written.splitlines()
    if kind == "string" and "|" not in blocks[index] and ">" not in blocks[index]:
        before, after = changed_lines(original, written)
        assert len(before) <= 2 and len(after) <= cases[index]["criteria"].count("\n") + 2
