"""Fuzzing the import path: any document is either imported or refused with a clear EvalFileError
message; never another exception, never a traceback, never a server error when pasted."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from evals_app.eval_files.errors import EvalFileError
from evals_app.models import Suite
from evals_app.services.imports.folders import ImportFailed, import_workspace
from tests import factories
from tests.strategies import eval_files, tricky_text

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    tricky_text,
    st.sampled_from(["system", "user", "assistant", "tool", "file", "text", "agentv-eval-v2"]),
)
anything = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.one_of(tricky_text, st.integers(), st.booleans()), inner, max_size=4)
    ),
    max_leaves=12,
)
message_like = st.fixed_dictionaries(
    {"role": anything, "content": st.one_of(anything, st.lists(anything, max_size=3))}
)
case_like = st.fixed_dictionaries(
    {},
    optional={
        "id": anything,
        "outcome": anything,
        "input_messages": st.one_of(anything, st.lists(message_like, max_size=3)),
        "expected_messages": st.one_of(anything, st.lists(message_like, max_size=2)),
        "execution": anything,
    },
)
eval_like = st.fixed_dictionaries(
    {"$schema": st.sampled_from(["agentv-eval-v2", "agentv-eval-v1"]) | anything},
    optional={"evalcases": st.one_of(anything, st.lists(case_like, max_size=3))},
)


def as_yaml(data: Any) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


documents = st.one_of(
    st.text(max_size=300),  # random text, mostly not YAML at all
    st.binary(max_size=300),  # random bytes, mostly not UTF-8
    anything.map(as_yaml),
    eval_like.map(as_yaml),
    eval_files().map(as_yaml),  # valid documents, so some imports succeed
    # A valid document with one line dropped, duplicated or cut off.
    st.tuples(
        eval_files().map(as_yaml), st.integers(0, 40), st.sampled_from(["drop", "twice", "cut"])
    ).map(lambda mutation: mutate(*mutation)),
)


def mutate(source: str, line: int, how: str) -> str:
    lines = source.splitlines(keepends=True)
    index = line % len(lines)
    if how == "drop":
        del lines[index]
    elif how == "twice":
        lines.insert(index, lines[index])
    else:
        lines[index] = lines[index][: len(lines[index]) // 2]
    return "".join(lines)


@FUZZ
@given(document=documents)
def test_any_document_is_imported_or_refused_with_a_clear_message(document: str | bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        eval_file = Path(folder) / "evals" / "fuzz.yaml"
        eval_file.parent.mkdir()
        eval_file.write_bytes(document if isinstance(document, bytes) else document.encode())
        try:
            import_workspace(eval_file, "fuzz")
        except ImportFailed as refused:
            assert refused.errors
            for error in refused.errors:
                assert isinstance(error, EvalFileError)
                assert error.message.strip()
                assert "Traceback" not in str(error)
                assert str(error).startswith("fuzz.yaml")


@pytest.fixture
def suite(db: None) -> Suite:
    return factories.suite(factories.workspace())


@FUZZ
@given(document=st.one_of(st.text(max_size=300), case_like.map(as_yaml), anything.map(as_yaml)))
@example(document="id: a\x00b\n")
def test_any_pasted_snippet_is_saved_or_refused_never_a_server_error(
    signed_in: Client, suite: Suite, document: str
) -> None:
    url = reverse("case_paste", args=[suite.workspace.slug, suite.pk])

    response = signed_in.post(url, {"yaml": document})

    if "\x00" in document:  # refused before any view reads it (agentv_web/nul_characters.py)
        assert response.status_code == 400
        assert response.content.decode() == "yaml: text cannot hold NUL characters."
        return
    # 200: a second snippet with the same id asks before it replaces the first case.
    assert response.status_code in (200, 302, 422), response.status_code
    if response.status_code == 422:
        assert "Nothing was saved:" in response.content.decode()
    if response.status_code == 200:
        assert "Replace" in response.content.decode()
