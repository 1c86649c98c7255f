"""Claude Code sessions as tests: reasoning and subagents are kept aside with a warning, and a
subagent's own file is no session to test (docs/imports.md, "Sessions")."""

from __future__ import annotations

import json
from typing import Any

from evals_app.other_tools.base import SourceFiles
from evals_app.other_tools.conversion import convert


def line(kind: str, content: Any, **more: Any) -> str:
    role = "user" if kind == "user" else "assistant"
    event = {"type": kind, "message": {"role": role, "content": content}, "sessionId": "s1"}
    return json.dumps({**event, "uuid": f"u{len(more)}", **more})


SESSION = "\n".join(
    [
        line("user", "Fix the failing test"),
        line(
            "assistant",
            [
                {"type": "thinking", "thinking": "Look at the test first."},
                {"type": "tool_use", "id": "t1", "name": "Read", "input": {"path": "a.py"}},
            ],
        ),
        line("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "x = 1"}]),
        line("assistant", "Started a helper.", isSidechain=True),
        line("assistant", [{"type": "text", "text": "Fixed: x is now 2."}]),
    ]
)


def test_a_session_test_keeps_its_tool_call_and_result_in_order() -> None:
    test = convert(SourceFiles({"s.jsonl": SESSION})).tests[0]
    assert test["vars"]["input"] == [{"role": "user", "content": "Fix the failing test"}]
    assert test["vars"]["expected_output"] == "Fixed: x is now 2."
    assert {"type": "trajectory:tool-used", "value": {"name": "Read", "min": 1}} in test["assert"]


def test_reasoning_and_subagents_are_kept_aside_with_a_warning_each() -> None:
    conversion = convert(SourceFiles({"s.jsonl": SESSION}))
    kept = conversion.tests[0]["metadata"]["imported_unsupported"]
    assert [item["field"] for item in kept] == ["line 2: thinking", "line 4: sidechain"]
    warned = [str(warning) for warning in conversion.all_warnings]
    assert warned == [
        "s.jsonl: row 1 (line 1): line 2: thinking: kept in metadata.imported_unsupported: "
        "reasoning is not part of an AgentV conversation",
        "s.jsonl: row 1 (line 1): line 4: sidechain: kept in metadata.imported_unsupported: "
        "a subagent's message (sidechain)",
    ]


def test_a_subagents_own_file_is_left_out() -> None:
    files = {"s.jsonl": SESSION, "s/subagents/agent-1.jsonl": SESSION}
    conversion = convert(SourceFiles(files))
    assert [result.path for result in conversion.files] == ["s.jsonl"]
    assert conversion.skipped == [
        ("s/subagents/agent-1.jsonl", "a subagent's session (see its parent session)")
    ]
