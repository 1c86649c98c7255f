"""Invariants of `format_case` over generated conversations (hypothesis)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evals_app.eval_files.case_parts import case_input, split_case
from evals_app.formatting.case_input import CaseInput
from evals_app.formatting.judge_prompt import DEFAULT_JUDGE_TEMPLATE
from evals_app.formatting.profile_2025.formatter import MODES, Mode, format_case
from evals_app.formatting.workspace_files import DirectoryFiles, MappingFiles

EVAL_PATH = "evals/case.yaml"
FILES = {
    "g.instructions.md": "Guideline text.\r\n",
    "evals/local.instructions.md": "Local guideline.",
    "notes.txt": "Some notes.\r\nLine 2\r\n",
    "evals/code.py": "print('hi')\n",
    "blank.txt": " \r\n\t",
}
# What a file block with this value contributes, by the visibility rule (docs/formatting.md).
FILE_VALUES = {
    "g.instructions.md": "guideline",
    "/local.instructions.md": "guideline",
    "notes.txt": "visible",
    "\\code.py": "visible",
    "../notes.txt": "visible",  # evals/../notes.txt is the root's notes.txt
    "../../notes.txt": "missing",  # every candidate leaves the workspace
    "blank.txt": "empty",
    "gone.txt": "missing",
    "": "missing",
}

texts = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["", "  \n", "@[User]:", "[User]: hi", "```\ncode\n```", "{{question}}"]),
)
blocks = st.one_of(
    texts.map(lambda value: {"type": "text", "value": value}),
    texts,
    st.sampled_from(sorted(FILE_VALUES)).map(lambda value: {"type": "file", "value": value}),
    st.just({"type": "image", "value": "cat.png"}),
)
messages = st.fixed_dictionaries(
    {
        "role": st.sampled_from(["system", "user", "assistant", "tool"]),
        "content": st.one_of(texts, st.lists(blocks, max_size=4)),
    }
)
cases = st.builds(
    lambda input_messages, expected: case_input(
        split_case(
            {
                "id": "generated",
                "outcome": "Does the thing.",
                "input_messages": input_messages,
                "expected_messages": expected,
            }
        )
    ),
    st.lists(messages, min_size=1, max_size=5),
    st.lists(messages, max_size=2),
)


def _is_visible(message: dict[str, Any]) -> bool:
    content = message["content"]
    items = [content] if isinstance(content, str) else content
    for item in items:
        block = {"type": "text", "value": item} if isinstance(item, str) else item
        if block["type"] == "text" and block["value"].strip():
            return True
        if block["type"] == "file" and FILE_VALUES[block["value"]] == "visible":
            return True
    return False


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("workspace")
    for path, content in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(content, encoding="utf-8", newline="")
    yield root


@given(case=cases, mode=st.sampled_from(MODES))
def test_role_markers_are_used_iff_the_rule_says_so(case: CaseInput, mode: Mode) -> None:
    raw = [{"role": m.role, "content": m.content} for m in case.input_messages]
    visible = sum(_is_visible(message) for message in raw)
    has_assistant_or_tool = any(message["role"] in ("assistant", "tool") for message in raw)

    formatted = format_case(case, eval_path=EVAL_PATH, files=MappingFiles(FILES), mode=mode)

    assert formatted.role_markers is (has_assistant_or_tool or visible > 1)
    assert (formatted.chat_prompt is not None) is formatted.role_markers
    assert len(formatted.turns) == visible
    assert any(w.code == "no_visible_content" for w in formatted.warnings) is (visible == 0)


@given(case=cases)
def test_the_decision_does_not_depend_on_the_mode(case: CaseInput) -> None:
    lm, agent = (
        format_case(case, eval_path=EVAL_PATH, files=MappingFiles(FILES), mode=mode)
        for mode in MODES
    )

    assert (lm.role_markers, lm.reason, lm.guidelines) == (
        agent.role_markers,
        agent.reason,
        agent.guidelines,
    )
    assert [role for role, _ in lm.turns] == [role for role, _ in agent.turns]


@given(case=cases, mode=st.sampled_from(MODES))
def test_visible_turns_appear_in_message_order(case: CaseInput, mode: Mode) -> None:
    raw = [{"role": m.role, "content": m.content} for m in case.input_messages]

    formatted = format_case(case, eval_path=EVAL_PATH, files=MappingFiles(FILES), mode=mode)

    assert [role for role, _ in formatted.turns] == [m["role"] for m in raw if _is_visible(m)]
    if not formatted.role_markers:
        assert len(formatted.turns) <= 1
        return
    position = 0
    for role, content in formatted.turns:
        marked = f"@[{role.capitalize()}]:\n{content}"
        found = formatted.question.find(marked, position)
        assert found >= position
        position = found + len(marked)


@given(case=cases, mode=st.sampled_from(MODES), answer=st.text(max_size=20))
def test_the_judge_question_section_is_the_question(
    case: CaseInput, mode: Mode, answer: str
) -> None:
    formatted = format_case(case, eval_path=EVAL_PATH, files=MappingFiles(FILES), mode=mode)
    preamble = DEFAULT_JUDGE_TEMPLATE.split("[[ ## expected_outcome ## ]]")[0]

    assert formatted.evaluator_prompt(answer) == (
        f"{preamble}[[ ## expected_outcome ## ]]\n{formatted.expected_outcome}\n\n"
        f"[[ ## question ## ]]\n{formatted.question}\n\n"
        f"[[ ## reference_answer ## ]]\n{formatted.reference_answer}\n\n"
        f"[[ ## candidate_answer ## ]]\n{answer}"
    )


@settings(deadline=None)
@given(case=cases, mode=st.sampled_from(MODES))
def test_directory_and_mapping_sources_format_identically(
    workspace: Path, case: CaseInput, mode: Mode
) -> None:
    from_mapping = format_case(case, eval_path=EVAL_PATH, files=MappingFiles(FILES), mode=mode)
    from_disk = format_case(case, eval_path=EVAL_PATH, files=DirectoryFiles(workspace), mode=mode)

    assert from_disk == from_mapping
