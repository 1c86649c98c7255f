"""Writing pieces of bytes at an offset: every byte in its place, whatever the system offers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evals_app.services import export_files
from evals_app.services.export_files import write_at

PIECES = [b"first line\n", b"", b"second line\n", "third, \u00e9\n".encode()]


def written(path: Path, pieces: list[bytes], offset: int) -> bytes:
    with open(path, "wb") as handle:
        write_at(handle.fileno(), pieces, offset)
    return path.read_bytes()


def test_pieces_are_written_one_after_the_other_from_the_offset(tmp_path: Path) -> None:
    assert written(tmp_path / "lines", PIECES, 4) == b"\0" * 4 + b"".join(PIECES)


def test_more_pieces_than_one_call_takes_are_all_written(tmp_path: Path) -> None:
    pieces = [f"{number}\n".encode() for number in range(3000)]

    assert written(tmp_path / "lines", pieces, 0) == b"".join(pieces)


def test_pieces_are_written_without_pwritev(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export_files, "_pwritev", None)

    assert written(tmp_path / "lines", PIECES, 0) == b"".join(PIECES)


def test_a_write_cut_short_is_finished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def cut_short(descriptor: int, pieces: list[bytes], offset: int) -> int:
        return os.pwrite(descriptor, pieces[0][:3], offset)

    monkeypatch.setattr(export_files, "_pwritev", cut_short)

    assert written(tmp_path / "lines", PIECES, 2) == b"\0\0" + b"".join(PIECES)
