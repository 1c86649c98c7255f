"""Hypothesis strategies for eval documents: valid AgentV data with every awkward corner."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

# Strings that YAML 1.1 or 1.2 could misread, multi-line text, and ordinary words.
tricky_text = st.one_of(
    st.sampled_from(
        [
            "no",
            "yes",
            "on",
            "0o17",
            "012",
            "1_000",
            "2024-01-01",
            "null",
            "~",
            "",
            "true",
            ".inf",
            "@[User]: hi",
            "  padded  ",
            "a: b",
            "- item",
            "#hash",
        ]
    ),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=30),
    st.lists(st.text(alphabet="abc xyz", max_size=12), min_size=2, max_size=4).map("\n".join),
)
keys = st.text(alphabet="abcdefghijklmnop_", min_size=1, max_size=8)
scalars = st.one_of(
    tricky_text, st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False)
)
extra_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=6,
)
FILE_NAMES = ["notes.txt", "g.instructions.md", "sub/code.py", "missing.md"]
block = st.one_of(
    tricky_text,
    st.fixed_dictionaries({"type": st.just("text"), "value": tricky_text}),
    st.fixed_dictionaries({"type": st.just("file"), "value": st.sampled_from(FILE_NAMES)}),
    st.fixed_dictionaries(
        {"type": st.just("image"), "value": tricky_text}, optional={"detail": extra_values}
    ),
)
message = st.fixed_dictionaries(
    {
        "role": st.sampled_from(["system", "user", "assistant", "tool"]),
        "content": st.one_of(tricky_text, st.lists(block, max_size=4)),
    },
    optional={"name": tricky_text},
)


@st.composite
def cases(draw: st.DrawFn, case_id: str = "case") -> dict[str, Any]:
    """A valid case mapping with unknown keys and shuffled key order."""
    case: dict[str, Any] = {
        "id": case_id,
        "outcome": draw(tricky_text),
        "input_messages": draw(st.lists(message, min_size=1, max_size=4)),
    }
    if draw(st.booleans()):
        case["expected_messages"] = draw(st.lists(message, max_size=2))
    case.update(draw(st.dictionaries(keys.map(lambda k: "x_" + k), extra_values, max_size=2)))
    order = draw(st.permutations(list(case)))
    return {key: case[key] for key in order}


@st.composite
def eval_files(draw: st.DrawFn) -> dict[str, Any]:
    """A valid eval document with unknown keys at every level, keys in shuffled order."""
    ids = draw(
        st.lists(
            st.text(alphabet="abc-123", min_size=1, max_size=6), min_size=1, max_size=3, unique=True
        )
    )
    all_cases = [draw(cases(case_id)) for case_id in ids]
    document: dict[str, Any] = {"$schema": "agentv-eval-v2", "evalcases": all_cases}
    if draw(st.booleans()):
        document["description"] = draw(tricky_text)
    document.update(draw(st.dictionaries(keys.map(lambda k: "x_" + k), extra_values, max_size=2)))
    order = draw(st.permutations(list(document)))
    return {key: document[key] for key in order}


# Cases in the spelling of any AgentV period (docs/formats.md, "Periods and their spellings"):
# the aliases of each part mixed freely, content as text, a list of blocks of any type or a
# mapping, messages of tool calls only, and mapping keys that are integers or booleans.
typed_keys = st.one_of(keys, st.integers(min_value=-3, max_value=10), st.booleans())
typed_mappings = st.dictionaries(typed_keys, extra_values, min_size=1, max_size=3)
any_block = st.one_of(
    block,
    st.fixed_dictionaries({"type": st.just("text")}, optional={"text": tricky_text}),
    st.fixed_dictionaries(
        {"type": st.just("tool_call"), "name": keys}, optional={"arguments": typed_mappings}
    ),
)
any_content = st.one_of(
    tricky_text,
    st.lists(any_block, max_size=4),
    typed_mappings.filter(lambda mapping: "role" not in mapping),
    st.integers(),
)
tool_call = st.fixed_dictionaries(
    {"tool": keys},
    optional={"input": st.one_of(typed_mappings, extra_values), "output": extra_values},
)
any_message = st.one_of(
    st.fixed_dictionaries(
        {"role": st.sampled_from(["system", "user", "assistant", "tool"]), "content": any_content},
        optional={"name": tricky_text},
    ),
    st.fixed_dictionaries(
        {"role": st.just("assistant"), "tool_calls": st.lists(tool_call, min_size=1, max_size=2)}
    ),
)
# A conversation as a list of messages, one message, a plain string, or one message's content.
conversation = st.one_of(
    st.lists(any_message, min_size=1, max_size=3),
    any_message,
    tricky_text,
    typed_mappings.filter(lambda mapping: "role" not in mapping),
)
evaluator = st.fixed_dictionaries(
    {"name": keys, "type": st.sampled_from(["llm_judge", "code"])},
    optional={
        "script": st.one_of(tricky_text, st.lists(keys, min_size=1, max_size=3)),
        "prompt": st.one_of(tricky_text, typed_mappings),
    },
)
rubric = st.fixed_dictionaries(
    {"id": keys},
    optional={
        "score_ranges": st.dictionaries(
            st.one_of(st.integers(min_value=0, max_value=5), st.booleans()), tricky_text, max_size=3
        )
    },
)


@st.composite
def period_cases(draw: st.DrawFn, case_id: str = "case") -> dict[str, Any]:
    """A valid case mapping in any period's spelling, with unknown keys and shuffled order."""
    case: dict[str, Any] = {draw(st.sampled_from(["id", "test_id"])): case_id}
    variables: dict[str, Any] = {}
    if draw(st.booleans()):
        case[draw(st.sampled_from(["outcome", "expected_outcome", "criteria"]))] = draw(tricky_text)
    for aliases in (
        ["input_messages", "input", "vars.input"],
        ["expected_messages", "expected_output", "vars.expected_output"],
    ):
        if draw(st.booleans()):
            where = draw(st.sampled_from(aliases))
            value = draw(conversation)
            if where.startswith("vars."):
                variables[where.removeprefix("vars.")] = value
            else:
                case[where] = value
    if variables or draw(st.booleans()):
        case["vars"] = {**draw(st.dictionaries(keys, extra_values, max_size=2)), **variables}
    grading = draw(st.sampled_from(["none", "execution", "evaluators", "rubrics", "assert"]))
    if grading == "execution":
        case["execution"] = {"evaluators": draw(st.lists(evaluator, max_size=2))}
    elif grading == "evaluators":
        case["evaluators"] = draw(st.lists(evaluator, max_size=2))
    elif grading == "rubrics":
        case["rubrics"] = draw(st.lists(rubric, min_size=1, max_size=2))
    elif grading == "assert":
        case["assert"] = draw(st.lists(st.one_of(tricky_text, evaluator), max_size=3))
    case.update(draw(st.dictionaries(keys.map(lambda k: "x_" + k), extra_values, max_size=2)))
    order = draw(st.permutations(list(case)))
    return {key: case[key] for key in order}


@st.composite
def period_eval_files(
    draw: st.DrawFn, cases_keys: tuple[str, ...] = ("evalcases", "eval_cases", "cases", "tests")
) -> dict[str, Any]:
    """A valid eval document of any period: its list of cases under one of `cases_keys`, with or
    without `$schema`, cases in any period's spelling, keys in shuffled order."""
    ids = draw(
        st.lists(
            st.text(alphabet="abc-123", min_size=1, max_size=6), min_size=1, max_size=3, unique=True
        )
    )
    document: dict[str, Any] = {
        draw(st.sampled_from(cases_keys)): [draw(period_cases(i)) for i in ids]
    }
    if draw(st.booleans()):
        document["$schema"] = "agentv-eval-v2"
    if draw(st.booleans()):
        document["evaluators"] = draw(st.lists(evaluator, max_size=2))
    document.update(draw(st.dictionaries(keys.map(lambda k: "x_" + k), extra_values, max_size=2)))
    order = draw(st.permutations(list(document)))
    return {key: document[key] for key in order}


# Today's tests: variables of every type, asserts of every kind (argv commands, weights and
# `required` as a number included), conversation tests with turns and settings.
variable_values = st.one_of(
    tricky_text,
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.lists(st.text(alphabet="abc xyz", min_size=1, max_size=8), min_size=1, max_size=3),
    extra_values,
)
typed_assert = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["contains", "regex", "equals"]), "value": tricky_text},
        optional={
            "weight": st.one_of(st.integers(0, 5), st.floats(0, 5)),
            "required": st.one_of(st.booleans(), st.floats(0, 1)),
            "name": keys,
        },
    ),
    st.fixed_dictionaries(
        {"type": st.just("llm-rubric")},
        optional={"value": tricky_text, "prompt": tricky_text, "weight": st.integers(1, 3)},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("script"),
            "command": st.one_of(tricky_text, st.lists(keys, min_size=1, max_size=3)),
        },
        optional={"cwd": keys, "required": st.booleans()},
    ),
    st.fixed_dictionaries({"type": keys}, optional={"value": extra_values, "threshold": scalars}),
)
asserts = st.lists(st.one_of(tricky_text, typed_assert), max_size=4)
conversation_turn = st.fixed_dictionaries(
    {"input": st.one_of(tricky_text, st.lists(message, min_size=1, max_size=2))},
    optional={
        "expected_output": st.one_of(tricky_text, extra_values),
        "assert": asserts,
        "x_note": extra_values,
    },
)


@st.composite
def today_tests(draw: st.DrawFn, case_id: str = "case") -> dict[str, Any]:
    """A test of today's format: `vars` (with the input or not), `criteria`, `assert`, and
    perhaps a conversation, in any key order."""
    test: dict[str, Any] = {"id": case_id}
    if draw(st.booleans()):
        test["criteria"] = draw(tricky_text)
    variables = draw(st.dictionaries(keys.filter(lambda k: k != "input"), variable_values))
    if draw(st.booleans()):
        variables["input"] = draw(conversation)
    if variables or draw(st.booleans()):
        test["vars"] = variables
    if draw(st.booleans()):
        test[draw(st.sampled_from(["assert", "assertions"]))] = draw(asserts)
    if draw(st.booleans()):
        test["mode"] = "conversation"
        test["turns"] = draw(st.lists(conversation_turn, max_size=3))
        for name, values in (
            ("aggregation", st.sampled_from(["mean", "min", "max", "median"])),
            ("on_turn_failure", st.sampled_from(["continue", "stop"])),
            ("window_size", st.integers(1, 5)),
        ):
            if draw(st.booleans()):
                test[name] = draw(values)
    order = draw(st.permutations(list(test)))
    return {key: test[key] for key in order}
