"""Import then export keeps every eval file's data: keys, order, string-vs-list content."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evals_app.formatting.engine import format_case
from evals_app.formatting.eval_file import parse_eval_file
from evals_app.formatting.workspace_files import DirectoryFiles
from evals_app.formatting.yaml_loader import load_yaml
from evals_app.models import Suite, Workspace
from evals_app.services.exporting import export_workspace
from evals_app.services.formatting import WorkspaceFormatter
from evals_app.services.importing import import_workspace
from tests.factories import write_files

pytestmark = pytest.mark.django_db

EXAMPLE_SUITES = [
    "evals/basics/single-turn.yaml",
    "evals/coding/debug-session.yaml",
    "evals/coding/review.yaml",
    "evals/support/escalation.yml",
    "evals/support/tool-use.yaml",
]


def exported_copy(root: Path, out: Path, name: str) -> Path:
    """Import `root` as workspace `name`, export it under `out`, return the exported folder."""
    workspace = import_workspace(root, name).workspace
    return export_workspace(workspace, out).folder


@pytest.mark.parametrize("suite_path", EXAMPLE_SUITES)
def test_example_suite_exports_to_the_same_data_in_the_same_key_order(
    example_root: Path, tmp_path: Path, suite_path: str
) -> None:
    folder = exported_copy(example_root, tmp_path, "examples")

    original = load_yaml((example_root / suite_path).read_bytes()).data
    exported = load_yaml((folder / suite_path).read_bytes()).data

    assert exported == original
    assert _key_orders(exported) == _key_orders(original)


def test_second_round_trip_gives_identical_bytes(example_root: Path, tmp_path: Path) -> None:
    first = exported_copy(example_root, tmp_path / "one", "first")
    second = exported_copy(first, tmp_path / "two", "second")

    first_files = {p.relative_to(first): p.read_bytes() for p in first.rglob("*") if p.is_file()}
    second_files = {p.relative_to(second): p.read_bytes() for p in second.rglob("*") if p.is_file()}
    assert first_files.keys() == second_files.keys()
    for relative, content in first_files.items():
        if relative.name != "formatted.jsonl":  # it names the workspace folder's suites only
            assert second_files[relative] == content, relative
    assert second_files[Path("formatted.jsonl")] == first_files[Path("formatted.jsonl")]


def test_multi_line_strings_are_written_as_block_scalars(
    example_root: Path, tmp_path: Path
) -> None:
    folder = exported_copy(example_root, tmp_path, "examples")

    text = (folder / "evals/coding/debug-session.yaml").read_text()

    assert "value: |" in text


def test_importing_again_replaces_suites_at_the_same_paths_and_keeps_the_rest(
    tmp_path: Path,
) -> None:
    def case(case_id: str) -> dict[str, Any]:
        return {"id": case_id, "outcome": "o", "input_messages": [{"role": "user", "content": "x"}]}

    def document(*ids: str) -> dict[str, Any]:
        return {"$schema": "agentv-eval-v2", "evalcases": [case(i) for i in ids]}

    write_files(tmp_path / "v1", {"a.yaml": document("one"), "b.yaml": document("two")})
    write_files(tmp_path / "v2", {"a.yaml": document("three", "four")})
    import_workspace(tmp_path / "v1", "team")
    import_workspace(tmp_path / "v2", "team")

    suites = {s.path: [c.case_id for c in s.cases.all()] for s in Suite.objects.all()}
    assert suites == {"a.yaml": ["three", "four"], "b.yaml": ["two"]}
    assert Workspace.objects.count() == 1


def test_default_workspace_name_is_the_folder_name(tmp_path: Path) -> None:
    write_files(
        tmp_path / "my-evals",
        {"e.yaml": {"$schema": "agentv-eval-v2", "evalcases": []}},
    )

    call_command("import_evals", str(tmp_path / "my-evals"))

    assert Workspace.objects.get().name == "my-evals"


def _key_orders(data: Any) -> Any:
    if isinstance(data, dict):
        return [(key, _key_orders(value)) for key, value in data.items()]
    if isinstance(data, list):
        return [_key_orders(item) for item in data]
    return None


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
def eval_files(draw: st.DrawFn) -> dict[str, Any]:
    """A valid eval document with unknown keys at every level, keys in shuffled order."""
    ids = draw(
        st.lists(
            st.text(alphabet="abc-123", min_size=1, max_size=6), min_size=1, max_size=3, unique=True
        )
    )
    cases = []
    for case_id in ids:
        case: dict[str, Any] = {
            "id": case_id,
            "outcome": draw(tricky_text),
            "input_messages": draw(st.lists(message, min_size=1, max_size=4)),
        }
        if draw(st.booleans()):
            case["expected_messages"] = draw(st.lists(message, max_size=2))
        case.update(draw(st.dictionaries(keys.map(lambda k: "x_" + k), extra_values, max_size=2)))
        order = draw(st.permutations(list(case)))
        cases.append({key: case[key] for key in order})
    document: dict[str, Any] = {"$schema": "agentv-eval-v2", "evalcases": cases}
    if draw(st.booleans()):
        document["description"] = draw(tricky_text)
    document.update(draw(st.dictionaries(keys.map(lambda k: "x_" + k), extra_values, max_size=2)))
    order = draw(st.permutations(list(document)))
    return {key: document[key] for key in order}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=eval_files())
def test_any_valid_eval_file_round_trips_and_formats_the_same_from_the_database(
    document: dict[str, Any],
) -> None:
    Workspace.objects.all().delete()
    with tempfile.TemporaryDirectory() as directory:
        root = write_files(
            Path(directory) / "ws",
            {
                "evals/suite.yaml": document,
                "evals/notes.txt": "Some notes.\r\n",
                "g.instructions.md": "Be kind.",
                "sub/code.py": "print(1)\n",
            },
        )
        workspace = import_workspace(root, "property").workspace
        folder = export_workspace(workspace, Path(directory) / "out").folder
        exported = load_yaml((folder / "evals/suite.yaml").read_bytes()).data

        assert exported == document
        assert _key_orders(exported) == _key_orders(document)

        parsed = parse_eval_file((root / "evals/suite.yaml").read_bytes())
        suite = workspace.suites.get()
        formatter = WorkspaceFormatter(workspace)
        for mode in ("lm", "agent"):
            for case, stored in zip(parsed.model.evalcases, suite.cases.all(), strict=True):
                from_files = format_case(
                    case, eval_path="evals/suite.yaml", files=DirectoryFiles(root), mode=mode
                )
                assert formatter.format(stored, suite, mode) == from_files
