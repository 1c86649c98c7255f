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
