"""The order of a suite after a sync: the files' order, each case only the app keeps after its
predecessor in the app (docs/sync.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evals_app.services.repository.three_way import Token, _order


def app(*names: str) -> list[tuple[int, str]]:
    """Stored cases, as tokens (primary key, id)."""
    return [(index + 1, name) for index, name in enumerate(names)]


@pytest.mark.parametrize(
    ("app_order", "files", "kept", "expected"),
    [
        ("abc", "cba", "", "cba"),
        ("axbc", "cba", "x", "cbax"),  # x followed a: it follows a still
        ("xabc", "cba", "x", "xcba"),  # nothing before x: first
        ("abxyc", "ca", "xy", "caxy"),  # b was removed: x follows a, y follows x
    ],
)
def test_cases_only_the_app_keeps_follow_their_predecessor(
    app_order: str, files: str, kept: str, expected: str
) -> None:
    tokens = {token[1]: token for token in app(*app_order)}
    kept_keys = {tokens[name][0] for name in kept}

    result = _order(list(tokens.values()), [tokens[name] for name in files], kept_keys)

    assert "".join(name for _, name in result) == expected


@given(
    st.lists(st.sampled_from("abcdefghij"), unique=True),
    st.data(),
)
def test_every_case_is_placed_once_the_files_order_holds_and_kept_cases_follow_theirs(
    names: list[str], data: st.DataObject
) -> None:
    tokens = app(*names)
    kept = data.draw(st.sets(st.sampled_from(tokens))) if tokens else set()
    others = [token for token in tokens if token not in kept]
    files = data.draw(st.permutations(others)) if others else []
    files = files[: data.draw(st.integers(0, len(files)))]  # the rest were removed
    added: list[Token] = [(None, "new")]

    result = _order(list(tokens), [*files, *added], {pk for pk, _ in kept})

    assert sorted(result, key=str) == sorted([*files, *added, *kept], key=str)
    assert [token for token in result if token in files or token in added] == [*files, *added]
    surviving = [token for token in tokens if token in kept or token in files]
    for token in kept:
        before = surviving[: surviving.index(token)]
        index = result.index(token)
        assert result[index - 1] == before[-1] if before else index == 0
