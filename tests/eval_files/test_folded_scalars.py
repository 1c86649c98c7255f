"""An edited folded scalar (`>`, `>-`) keeps its file's line breaks where its words did not
change: one changed word is one changed line of the file (docs/formats.md, "Round trip")."""

from __future__ import annotations

import difflib
import json
import subprocess
from typing import Any

from django.conf import settings
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from evals_app.eval_files.faithful_writing import rewrite_eval_file
from evals_app.eval_files.reading import read_eval_file
from tests.eval_files.faithful_checks import stored

FILE = """\
tests:
  - id: refund
    criteria: >-
      The answer names the refund window of thirty days
      and says that the receipt is needed, without asking
      for the order number again.

      A second paragraph stays as it is
      across two lines.
    vars:
      input: Can I get my money back?
"""

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=7)


def edited(original: str, criteria: str) -> str:
    """`original` with its first test's criteria set to `criteria`, as the app writes it."""
    contents = read_eval_file(original, file_format="yaml")
    header, cases = stored(contents)
    cases[0]["criteria"] = criteria
    return rewrite_eval_file(original, header, cases, contents.format, contents.cases_key)


def criteria_of(text: str) -> Any:
    return read_eval_file(text, file_format="yaml").cases[0]["criteria"]


def line_changes(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines removed and added, as a unified diff counts them."""
    diff = list(difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0))
    removed = [line[1:] for line in diff if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")]
    return removed, added


def test_a_word_added_to_a_folded_scalar_changes_one_line() -> None:
    criteria = criteria_of(FILE).replace("the receipt", "the printed receipt")

    written = edited(FILE, criteria)

    assert line_changes(FILE, written) == (
        ["      and says that the receipt is needed, without asking"],
        ["      and says that the printed receipt is needed, without asking"],
    )
    assert criteria_of(written) == criteria


def test_agentvs_yaml_parser_reads_the_edited_text() -> None:
    """AgentV reads eval files with the `yaml` package of npm: it gets the edited value."""
    criteria = criteria_of(FILE).replace("thirty days", "thirty calendar days")
    written = edited(FILE, criteria)
    script = (
        "const {parse} = require('yaml');"
        "let text = '';"
        "process.stdin.on('data', d => text += d);"
        "process.stdin.on('end', () => process.stdout.write(JSON.stringify(parse(text))));"
    )
    parsed = subprocess.run(
        ["node", "-e", script],
        input=written,
        capture_output=True,
        text=True,
        check=True,
        cwd=settings.BASE_DIR,
        timeout=60,
    )
    assert json.loads(parsed.stdout)["tests"][0]["criteria"] == criteria


@st.composite
def folded_files(draw: st.DrawFn) -> tuple[str, list[list[list[str]]]]:
    """A file whose one test's criteria is a folded scalar of distinct words: paragraphs of
    lines of words, as people wrap them."""
    pool = draw(st.lists(words, min_size=4, max_size=40, unique=True))
    paragraphs: list[list[list[str]]] = []
    remaining = list(pool)
    while remaining:
        line_count = draw(st.integers(min_value=1, max_value=4))
        paragraph = []
        for _ in range(line_count):
            if not remaining:
                break
            size = draw(st.integers(min_value=1, max_value=6))
            paragraph.append(remaining[:size])
            remaining = remaining[size:]
        paragraphs.append(paragraph)
    chomp = draw(st.sampled_from(["", "-"]))
    body = "\n\n".join(
        "\n".join("      " + " ".join(line) for line in paragraph) for paragraph in paragraphs
    )
    text = f"tests:\n  - id: t\n    criteria: >{chomp}\n{body}\n    vars:\n      input: hi\n"
    return text, paragraphs


@hypothesis_settings(max_examples=150, deadline=None)
@given(folded_files(), st.data())
def test_one_word_changed_in_a_folded_scalar_changes_at_most_its_line(
    file: tuple[str, list[list[list[str]]]], data: st.DataObject
) -> None:
    original, paragraphs = file
    every = [word for paragraph in paragraphs for line in paragraph for word in line]
    target = data.draw(st.sampled_from(every))
    how = data.draw(st.sampled_from(["replace", "insert", "remove"]))
    fresh = data.draw(words.filter(lambda word: word not in every))
    value = criteria_of(original)
    tokens = value.replace("\n", " \n ").split(" ")
    at = tokens.index(target)
    if how == "replace":
        tokens[at] = fresh
    elif how == "insert":
        tokens.insert(at + 1, fresh)
    else:
        del tokens[at]
    criteria = " ".join(tokens).replace(" \n ", "\n")
    if any(not line or line.strip() != line for line in criteria.split("\n")):
        return  # the only word of a paragraph removed: no paragraph is left to keep

    written = edited(original, criteria)

    assert criteria_of(written) == criteria
    removed, added = line_changes(original, written)
    # The line that held the word, and no other (a line that held only it is gone).
    assert len(removed) == 1 and len(added) <= 1
    assert target in removed[0].split()
