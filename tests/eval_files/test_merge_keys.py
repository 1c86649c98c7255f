"""YAML merge keys (`<<: *defaults`): read merged as AgentV reads them, written back as the file
spells them (docs/formats.md, "Merge keys")."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.eval_files.case_parts import join_case, split_case
from evals_app.eval_files.faithful_writing import rewrite_eval_file
from evals_app.eval_files.merge_keys import merged, respelled
from evals_app.eval_files.reading import read_eval_file
from evals_app.eval_files.yaml_dumper import dump_yaml, dump_yaml_with_pyyaml
from evals_app.eval_files.yaml_loader import load_yaml
from tests.eval_files.faithful_checks import stored

DEFAULTS = {"criteria": "Polite", "vars": {"tone": "warm"}}


@pytest.mark.parametrize(
    ("spelled", "read"),
    [
        pytest.param(
            {"<<": DEFAULTS, "id": "a"}, {**DEFAULTS, "id": "a"}, id="keys take the place of <<"
        ),
        pytest.param(
            {"criteria": "Mine", "<<": DEFAULTS},
            {"criteria": "Mine", "vars": {"tone": "warm"}},
            id="a key written before wins",
        ),
        pytest.param(
            {"<<": DEFAULTS, "criteria": "Mine"},
            {"criteria": "Mine", "vars": {"tone": "warm"}},
            id="a key written after wins",
        ),
        pytest.param(
            {"<<": [{"a": 1, "b": 1}, {"b": 2, "c": 2}], "id": "x"},
            {"a": 1, "b": 1, "c": 2, "id": "x"},
            id="the first of a list of sources wins",
        ),
        pytest.param(
            {"tests": [{"execution": {"<<": {"target": "t", "x": 1}, "x": 2}}]},
            {"tests": [{"execution": {"target": "t", "x": 2}}]},
            id="at any depth",
        ),
        pytest.param(
            {"<<": {"<<": {"deep": 1}, "a": 2}}, {"deep": 1, "a": 2}, id="a source with its own"
        ),
        pytest.param({"<<": "text", "a": 1}, {"<<": "text", "a": 1}, id="<< of text is a key"),
    ],
)
def test_merge_keys_are_read_as_agentv_reads_them(spelled: Any, read: Any) -> None:
    assert merged(spelled) == read


def test_a_document_without_merge_keys_is_read_as_it_is() -> None:
    document = {"id": "a", "vars": {"input": "hi"}}

    assert merged(document) is document


@pytest.mark.parametrize(
    ("edit", "written"),
    [
        pytest.param({}, {"<<": DEFAULTS, "id": "a"}, id="unchanged: as spelled"),
        pytest.param(
            {"input": "hi"}, {"<<": DEFAULTS, "id": "a", "input": "hi"}, id="a new key is added"
        ),
        pytest.param(
            {"criteria": "Stricter"},
            {"<<": DEFAULTS, "id": "a", "criteria": "Stricter"},
            id="a changed merged value is written, where it wins",
        ),
        pytest.param({"id": "b"}, {"<<": DEFAULTS, "id": "b"}, id="a written key changes"),
    ],
)
def test_an_edit_of_the_merged_view_keeps_the_merge_key(
    edit: dict[str, Any], written: dict[str, Any]
) -> None:
    spelled = {"<<": DEFAULTS, "id": "a"}

    assert respelled({**merged(spelled), **edit}, spelled) == written


def test_a_nested_merge_key_is_kept_when_another_part_changes() -> None:
    spelled = {"id": "a", "execution": {"<<": {"target": "t"}}, "input": "hi"}

    edited = {**merged(spelled), "input": "hello"}

    assert respelled(edited, spelled) == {
        "id": "a",
        "execution": {"<<": {"target": "t"}},
        "input": "hello",
    }


def test_a_document_written_with_merge_keys_is_kept_as_written() -> None:
    pasted = {"<<": {"criteria": "Other"}, "id": "a"}

    assert respelled(pasted, {"<<": DEFAULTS, "id": "a"}) == pasted


values = st.one_of(st.text(max_size=5), st.integers(), st.lists(st.integers(), max_size=2))
keys = st.sampled_from(["a", "b", "c", "d", "id"])


@given(
    source=st.dictionaries(keys, values, max_size=4),
    own=st.dictionaries(keys, values, max_size=4),
    changes=st.dictionaries(keys, values, max_size=3),
)
def test_what_is_written_reads_as_the_edit(
    source: dict[str, Any], own: dict[str, Any], changes: dict[str, Any]
) -> None:
    spelled = {"<<": source, **own} if source else dict(own)
    edited = {**merged(spelled), **changes}

    assert merged(respelled(edited, spelled)) == edited


FILE = """\
x-defaults: &defaults
  criteria: Answers politely
  input:
    - role: system
      content: Be brief.
    - role: user
      content: Hello

tests:
  - id: greeting
    <<: *defaults
  - id: question
    <<: *defaults
    input: What time is it?  # own input
"""


def test_a_case_is_split_into_its_merged_parts() -> None:
    cases = read_eval_file(FILE).cases

    first, second = split_case(cases[0]), split_case(cases[1])

    assert (first.outcome, [m["content"] for m in first.input_messages]) == (
        "Answers politely",
        ["Be brief.", "Hello"],
    )
    assert (second.outcome, second.input_messages) == (
        "Answers politely",
        [{"role": "user", "content": "What time is it?"}],
    )


def edited_file(edit: Any) -> str:
    """FILE with each case taken apart as the editor takes it, `edit`ed (None: as it was),
    joined and saved as the app saves it."""
    contents = read_eval_file(FILE)
    header, cases = stored(contents)
    cases = [
        respelled(edit(split_case(case)) or join_case(split_case(case)), case) for case in cases
    ]
    return rewrite_eval_file(FILE, header, cases, contents.format, contents.cases_key)


def test_untouched_cases_with_merge_keys_come_back_byte_for_byte() -> None:
    assert edited_file(lambda parts: None) == FILE


def test_an_edited_case_keeps_its_merge_key_and_only_its_changed_line() -> None:
    def edit(parts: Any) -> Any:
        if parts.case_id == "question":
            parts.input_messages = [{"role": "user", "content": "What day is it?"}]
            return join_case(parts)
        return None

    written = edited_file(edit)

    assert written == FILE.replace("What time is it?", "What day is it?")


def test_a_changed_merged_value_is_written_in_the_case_beside_its_merge_key() -> None:
    def edit(parts: Any) -> Any:
        if parts.case_id == "greeting":
            parts.outcome = "Answers warmly"
            return join_case(parts)
        return None

    written = edited_file(edit)

    assert "'<<'" not in written
    assert written.count("<<: *defaults") == 2
    case = load_yaml(written).data["tests"][0]
    assert merged(case)["criteria"] == "Answers warmly"
    assert written.startswith(FILE[: FILE.index("  - id: question")])


def test_a_merge_key_written_anew_is_never_quoted() -> None:
    contents = read_eval_file(FILE)
    header, cases = stored(contents)
    cases[1]["<<"] = {"criteria": "Replaced"}

    written = rewrite_eval_file(FILE, header, cases, contents.format, contents.cases_key)

    assert "'<<'" not in written
    assert merged(load_yaml(written).data["tests"][1])["criteria"] == "Replaced"


@pytest.mark.parametrize("dump", [dump_yaml, dump_yaml_with_pyyaml], ids=["emitter", "pyyaml"])
def test_the_writer_writes_a_merge_key_plain_and_the_text_quoted(dump: Any) -> None:
    assert dump({"<<": {"a": 1}, "b": "<<", "c": {"<<": "text"}}) == (
        "<<:\n  a: 1\nb: '<<'\nc:\n  '<<': text\n"
    )
