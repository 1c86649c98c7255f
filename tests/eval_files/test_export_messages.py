"""Each kind of turn in both exports (docs/exports.md, "Messages"): a chat JSONL line is the
input and then the expected output as assistant messages; a promptfoo test sends the same input
as `vars.messages`. Tool calls and results take OpenAI's shape; a conversation is one line, and
one promptfoo test per turn."""

from __future__ import annotations

from typing import Any

import pytest

from tests.eval_files.export_formats_helpers import PATH, chat_lines, promptfoo

USER = {"role": "user", "content": "What is 49?"}
ANSWER = {"role": "assistant", "content": "Seven squared."}

# (the test's vars, its chat JSONL line's messages)
TURNS: list[tuple[dict[str, Any], list[dict[str, Any]]]] = [
    ({"input": "What is 49?", "expected_output": "Seven squared."}, [USER, ANSWER]),
    (
        {
            "input": [{"role": "system", "content": "Be brief."}, USER],
            "expected_output": [ANSWER],
        },
        [{"role": "system", "content": "Be brief."}, USER, ANSWER],
    ),
    (
        {"input": {"role": "user", "content": "What is 49?"}, "expected_output": ANSWER},
        [USER, ANSWER],
    ),
    (
        {"input": {"question": "49?"}, "expected_output": "Seven squared."},
        [{"role": "user", "content": '{\n  "question": "49?"\n}'}, ANSWER],
    ),
    (
        {
            "input": [
                USER,
                {"role": "assistant", "content": "Let me think."},
                {"role": "user", "content": "And 64?", "name": "alice"},
            ],
            "expected_output": "Eight squared.",
        },
        [
            USER,
            {"role": "assistant", "content": "Let me think."},
            {"role": "user", "content": "And 64?", "name": "alice"},
            {"role": "assistant", "content": "Eight squared."},
        ],
    ),
    (
        {
            "input": "Weather in Paris?",
            "expected_output": [
                {
                    "role": "assistant",
                    "tool_calls": [
                        {"tool": "get_weather", "input": {"city": "Paris"}, "output": {"c": 20}}
                    ],
                },
                {"role": "assistant", "content": "20 °C."},
            ],
        },
        [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": '{"c": 20}'},
            {"role": "assistant", "content": "20 °C."},
        ],
    ),
    (
        {
            "input": [
                {"role": "user", "content": "Look it up."},
                {"role": "tool", "content": "found", "tool_call_id": "call_9"},
            ],
        },
        [
            {"role": "user", "content": "Look it up."},
            {"role": "tool", "content": "found", "tool_call_id": "call_9"},
        ],
    ),
    (
        {
            "input": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "value": "Describe:"},
                        {"type": "image", "value": "https://example.com/a.png"},
                    ],
                }
            ],
            "expected_output": "A cat.",
        },
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Describe:"},
                    {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
                ],
            },
            {"role": "assistant", "content": "A cat."},
        ],
    ),
]


@pytest.mark.parametrize(("variables", "messages"), TURNS)
def test_a_chat_jsonl_line_is_the_input_then_the_expected_output(
    variables: dict[str, Any], messages: list[dict[str, Any]]
) -> None:
    lines, _ = chat_lines([{"id": "t", "vars": variables}])
    assert lines == [messages]


@pytest.mark.parametrize(("variables", "messages"), TURNS)
def test_a_promptfoo_test_sends_the_input_messages(
    variables: dict[str, Any], messages: list[dict[str, Any]]
) -> None:
    config, _ = promptfoo([{"id": "t", "vars": variables}])

    assert config["prompts"] == ["{{ messages | dump }}"]
    (test,) = config["tests"]
    sent = test["vars"]["messages"]
    assert sent == messages[: len(sent)]
    assert test["vars"].get("expected_output") == variables.get("expected_output")


def test_a_file_block_is_sent_as_agentvs_lm_mode_sends_it() -> None:
    case = {
        "id": "t",
        "vars": {
            "input": [{"role": "user", "content": ["Read:", {"type": "file", "value": "a.md"}]}]
        },
    }
    lines, warnings = chat_lines([case], files={"evals/a.md": " Tea.\n"})

    assert lines == [[{"role": "user", "content": 'Read:\n<file path="a.md">\nTea.\n</file>'}]]
    assert warnings == [
        f'{PATH}: case "t", `expected_output`: none, so the line ends with the input'
    ]


def test_a_missing_file_is_left_out_with_a_warning_and_kept_for_promptfoo() -> None:
    content = ["Read:", {"type": "file", "value": "gone.md"}]
    case = {"id": "t", "vars": {"input": [{"role": "user", "content": content}]}}
    config, warnings = promptfoo([case])

    (test,) = config["tests"]
    assert test["vars"]["messages"] == [{"role": "user", "content": "Read:"}]
    assert test["metadata"]["agentv_unsupported"]["input"] == [{"role": "user", "content": content}]
    assert (
        f'{PATH}: case "t", `input[0].content[1]`: file "gone.md" not found; left out' in warnings
    )


CONVERSATION = {
    "id": "chat",
    "mode": "conversation",
    "vars": {"input": [{"role": "system", "content": "Be brief."}]},
    "turns": [
        {"input": "Do you sell tea?", "expected_output": "Yes."},
        {"input": "Which kinds?", "assert": ["Names two kinds"]},
    ],
}


def test_a_conversation_is_one_chat_jsonl_line_of_every_turn() -> None:
    lines, warnings = chat_lines([CONVERSATION])

    assert lines == [
        [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Do you sell tea?"},
            {"role": "assistant", "content": "Yes."},
            {"role": "user", "content": "Which kinds?"},
        ]
    ]
    assert warnings == [
        f'{PATH}: case "chat", `turns[1].expected_output`: none, so this turn has no answer',
        f'{PATH}: case "chat", `turns[1].assert`: chat JSONL has no place for it; left out',
    ]


def test_a_conversation_is_one_promptfoo_test_per_turn() -> None:
    config, warnings = promptfoo([CONVERSATION])

    first, second = config["tests"]
    assert first["description"] == "chat (turn 1 of 2)"
    assert first["vars"] == {
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Do you sell tea?"},
        ],
        "expected_output": "Yes.",
    }
    assert "assert" not in first
    assert second["vars"]["messages"][-2:] == [
        {"role": "assistant", "content": "Yes."},
        {"role": "user", "content": "Which kinds?"},
    ]
    assert second["assert"] == [{"type": "llm-rubric", "value": "Names two kinds"}]
    assert [test["metadata"]["conversationId"] for test in config["tests"]] == ["chat", "chat"]
    assert [test["metadata"]["turn"] for test in config["tests"]] == [1, 2]
    assert any("`turns`: each turn is a promptfoo test" in warning for warning in warnings)


def test_prompts_and_list_variables_expand_into_one_test_each() -> None:
    header = {"prompts": ["{{ input }}", "Answer briefly: {{ input }}"], "tests": [None]}
    case = {"id": "greet-{{ lang }}", "vars": {"lang": ["en", "fr"], "input": "Hi in {{ lang }}"}}
    config, _ = promptfoo([case], header=header)
    lines, _ = chat_lines([case], header=header)

    ids = [test["metadata"]["agentv_id"] for test in config["tests"]]
    assert [test_id.split("__prompt_")[0] for test_id in ids] == [
        "greet-en",
        "greet-fr",
        "greet-en",
        "greet-fr",
    ]
    assert len(set(ids)) == 4  # AgentV names each prompt's test apart
    assert [messages[0]["content"] for messages in lines] == [
        "Hi in en",
        "Hi in fr",
        "Answer briefly: Hi in en",
        "Answer briefly: Hi in fr",
    ]
    assert [test["vars"]["lang"] for test in config["tests"]] == ["en", "fr", "en", "fr"]


def test_an_older_suites_conversation_is_read_as_today_reads_it() -> None:
    header = {"$schema": "agentv-eval-v2", "evalcases": [None]}
    case = {
        "id": "old",
        "outcome": "Answers",
        "input_messages": [{"role": "system", "content": "S"}, USER],
        "expected_messages": [ANSWER],
    }
    lines, _ = chat_lines([case], header=header, older=True)

    assert lines == [[{"role": "system", "content": "S"}, USER, ANSWER]]


def test_what_chat_jsonl_has_no_place_for_is_named_in_warnings() -> None:
    case = {
        "id": "t",
        "vars": {"input": "Hi", "expected_output": "Hello"},
        "assert": ["Polite"],
        "metadata": {"owner": "ana"},
    }
    _, warnings = chat_lines([case])

    assert warnings == [
        f'{PATH}: case "t", `assert`: chat JSONL has no place for it; left out',
        f'{PATH}: case "t", `metadata`: chat JSONL has no place for it; left out',
    ]


def test_input_files_come_before_a_text_input_as_agentv_sends_them() -> None:
    header = {"tests": [None], "input_files": ["a.md"]}
    lines, _ = chat_lines(
        [{"id": "t", "input": "Summarise.", "expected_output": "Tea."}],
        header=header,
        files={"evals/a.md": "Tea.\n"},
    )

    assert lines == [
        [
            {"role": "user", "content": '<file path="a.md">\nTea.\n</file>\nSummarise.'},
            {"role": "assistant", "content": "Tea."},
        ]
    ]


def test_the_suites_other_keys_are_kept_in_the_configs_metadata_and_named() -> None:
    header = {"name": "shop", "prompts": ["{{ input }}"], "tests": [None]}
    config, warnings = promptfoo([{"id": "t", "vars": {"input": "Hi"}}], header=header)
    _, chat_warnings = chat_lines([{"id": "t", "vars": {"input": "Hi"}}], header=header)

    assert config["metadata"] == {"agentv_unsupported": {"name": "shop"}}
    assert warnings == [
        f"{PATH}: the suite, `name`: promptfoo has no equivalent; kept in "
        "metadata.agentv_unsupported"
    ]
    assert f"{PATH}: the suite, `name`: chat JSONL has no place for it; left out" in chat_warnings


def test_a_test_without_input_is_written_and_named() -> None:
    case = {"id": "t", "vars": {"expected_output": "Hi"}}
    lines, warnings = chat_lines([case], header={"tests": [None]})  # no prompt gives it one

    assert lines == [[{"role": "assistant", "content": "Hi"}]]
    assert warnings == [f'{PATH}: case "t", `input`: none, and AgentV skips a test without input']
