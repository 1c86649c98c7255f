"""Export writes what it did not change exactly as it was read: every eval file, file of cases,
config, prompt and attachment, byte for byte (docs/formats.md, "Round trip")."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from evals_app.eval_files.writing import eval_file_text
from evals_app.models import Workspace
from evals_app.services.cases.editing import save_case
from evals_app.services.exports import suite_texts
from evals_app.services.exports.exporting import export_workspace
from evals_app.services.imports.folders import import_workspace
from evals_app.services.imports.zip_import import import_zip
from evals_app.services.suites.eval_files import create_suite
from tests.conftest import EXAMPLES
from tests.factories import user, write_files, zip_archive

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FOLDERS = {
    "examples": EXAMPLES,
    "periods": FIXTURES / "periods",
    "upgrade": FIXTURES / "upgrade",
    "today": FIXTURES / "today",
}

# Bytes a text-mode read would change: a BOM, CRLF line endings, no final newline, comments.
AWKWARD_FILES: dict[str, str | bytes | dict[str, object]] = {
    ".agentv/config.yaml": (
        b"\xef\xbb\xbf$schema: agentv-config-v2\r\nguideline_patterns:\r\n  - '**/*.md'\r\n"
    ),
    "prompts/system.md": b"Be brief.\r\nSay why.",
    "evals/crlf.eval.yaml": (
        b"\xef\xbb\xbf# Team notes\r\ndescription:   Odd spacing   # kept\r\ntests:\r\n"
        b'  - id: one\r\n    input: "Hello?"\r\n    expected_output: >\r\n      Hi\r\n'
        b"      there\r\n\r\n  # the second\r\n  - {id: two, input: 'Bye?'}"
    ),
    "evals/referring.eval.yaml": "tests: file://cases.jsonl\n",
    "evals/cases.jsonl": b'{"id": "j1", "input": "A?"}\n{ "id":"j2","input":"B?" }',
}


def exported_bytes(workspace: Workspace, out: Path, jobs: int = 1) -> dict[str, bytes]:
    """Every suite's and stored file's exported bytes, by workspace path."""
    folder = export_workspace(workspace, out, jobs=jobs).folder
    paths = list(workspace.suites.values_list("path", flat=True))
    paths += list(workspace.files.values_list("path", flat=True))
    return {path: (folder / path).read_bytes() for path in paths}


def changed_files(root: Path, exported: dict[str, bytes]) -> list[str]:
    return [path for path, data in exported.items() if data != (root / path).read_bytes()]


@pytest.mark.parametrize("name", FOLDERS)
def test_an_untouched_workspace_exports_every_file_byte_for_byte(name: str, tmp_path: Path) -> None:
    root = FOLDERS[name]
    workspace = import_workspace(root, name).workspace

    exported = exported_bytes(workspace, tmp_path)

    assert workspace.suites.exists()
    assert changed_files(root, exported) == []


def test_a_bom_crlf_and_a_missing_final_newline_are_kept_in_every_kind_of_file(
    tmp_path: Path,
) -> None:
    root = write_files(tmp_path / "awkward", AWKWARD_FILES)
    workspace = import_workspace(root, "awkward").workspace

    exported = exported_bytes(workspace, tmp_path / "out")

    assert {".agentv/config.yaml", "evals/crlf.eval.yaml", "evals/cases.jsonl"} <= set(exported)
    assert changed_files(root, exported) == []


def test_a_workspace_imported_from_a_zip_exports_byte_for_byte(tmp_path: Path) -> None:
    archive = zip_archive({f"awkward/{path}": data for path, data in AWKWARD_FILES.items()})
    summary = import_zip(io.BytesIO(archive), "zipped", user(), lambda _: True)

    exported = exported_bytes(summary.workspace, tmp_path)

    root = write_files(tmp_path / "awkward", AWKWARD_FILES)
    assert changed_files(root, exported) == []


def test_a_single_imported_eval_file_exports_byte_for_byte(tmp_path: Path) -> None:
    root = write_files(tmp_path / "awkward", AWKWARD_FILES)
    workspace = import_workspace(root / "evals/crlf.eval.yaml", "single").workspace

    exported = exported_bytes(workspace, tmp_path / "out")

    assert exported["crlf.eval.yaml"] == (root / "evals/crlf.eval.yaml").read_bytes()


def big_suite(folder: Path) -> Path:
    """A folder with one eval file of more cases than an export batch holds (and text beyond
    ASCII, as the database holds it)."""
    cases = "".join(
        f"  # case {n}: é\n  - id: case-{n}\n    input: 'Question {n}? 🙂'\n\n" for n in range(1200)
    )
    return write_files(folder, {"evals/big.eval.yaml": "tests:\n" + cases})


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_suite_whose_cases_span_export_batches_is_written_byte_for_byte(
    tmp_path: Path, jobs: int
) -> None:
    root = big_suite(tmp_path / "big")
    workspace = import_workspace(root, "big").workspace

    exported = exported_bytes(workspace, tmp_path / "out", jobs=jobs)

    assert exported["evals/big.eval.yaml"] == (root / "evals/big.eval.yaml").read_bytes()


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_edited_case_of_a_suite_whose_cases_span_export_batches_changes_only_its_line(
    tmp_path: Path, jobs: int
) -> None:
    root = big_suite(tmp_path / "big")
    workspace = import_workspace(root, "big").workspace
    suite = workspace.suites.get()
    case = suite.cases.get(case_id="case-700")
    save_case(case, {**case.document, "input": "Changed?"}, case.version, None)

    exported = exported_bytes(workspace, tmp_path / "out", jobs=jobs)

    original = (root / "evals/big.eval.yaml").read_text()
    expected = original.replace("input: 'Question 700? 🙂'", "input: 'Changed?'")
    assert exported["evals/big.eval.yaml"] == expected.encode()
    documents = [case.document for case in suite.cases.order_by("position")]
    assert suite_texts.suite_file_text(suite, documents) == expected  # as publish writes it


def test_an_edited_case_changes_only_its_own_lines_in_the_export(tmp_path: Path) -> None:
    root = write_files(tmp_path / "awkward", AWKWARD_FILES)
    workspace = import_workspace(root, "awkward").workspace
    case = workspace.suites.get(path="evals/crlf.eval.yaml").cases.get(case_id="two")
    save_case(case, {**case.document, "input": "Farewell?"}, case.version, None)

    exported = exported_bytes(workspace, tmp_path / "out")

    before = (root / "evals/crlf.eval.yaml").read_bytes().split(b"\r\n")
    after = exported["evals/crlf.eval.yaml"].split(b"\r\n")
    assert after[:-1] == before[:-1]
    assert b"Farewell?" in after[-1] and b"id: two" in after[-1]
    assert changed_files(root, exported) == ["evals/crlf.eval.yaml"]


def test_a_suite_made_in_the_app_is_written_by_the_apps_writer(tmp_path: Path) -> None:
    workspace = import_workspace(write_files(tmp_path / "w", AWKWARD_FILES), "w").workspace
    create_suite(workspace, "evals/new.eval.yaml")

    exported = exported_bytes(workspace, tmp_path / "out")

    suite = workspace.suites.get(path="evals/new.eval.yaml")
    expected = eval_file_text(suite.file_format, suite.document, suite.cases_key, [])
    assert exported["evals/new.eval.yaml"] == expected.encode()


def test_an_untouched_suite_is_copied_without_reading_its_text_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_files(tmp_path / "awkward", AWKWARD_FILES)
    workspace = import_workspace(root, "awkward").workspace
    rewritten: list[str] = []

    def rewrite(original: str, *rest: object) -> str:
        rewritten.append(original)
        return original

    monkeypatch.setattr(suite_texts, "rewrite_eval_file", rewrite)
    exported_bytes(workspace, tmp_path / "untouched")
    case = workspace.suites.get(path="evals/cases.jsonl").cases.get(case_id="j2")
    save_case(case, {**case.document, "input": "C?"}, case.version, None)
    exported_bytes(workspace, tmp_path / "edited")

    assert rewritten == [(root / "evals/cases.jsonl").read_text()]
