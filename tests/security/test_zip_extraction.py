"""An uploaded .zip is unpacked only if it is safe: no entry leaves the folder or is a link,
and neither its declared sizes nor the bytes it actually unpacks to exceed the limits."""

from __future__ import annotations

import io
import stat
import struct
import zipfile
from pathlib import Path

import pytest

from evals_app.eval_files.paths import shown
from evals_app.services.imports.zip_extraction import ZipLimits, ZipRefused, extract_zip
from tests.factories import zip_archive

SMALL = ZipLimits(compressed_bytes=2**20, uncompressed_bytes=4096, entries=5, file_bytes=1024)


def extract(data: bytes, folder: Path, limits: ZipLimits = SMALL) -> Path:
    return extract_zip(io.BytesIO(data), folder, limits)


def with_entry(info: zipfile.ZipInfo, content: bytes = b"x") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("evals/ok.yaml", "evalcases: []\n")
        archive.writestr(info, content)
    return buffer.getvalue()


def declaring_size(data: bytes, name: str, size: int) -> bytes:
    """`data` with the uncompressed size of entry `name` rewritten as `size` in both of its
    headers (local and central directory), as a crafted archive would lie about it."""
    patched = bytearray(data)
    encoded = name.encode()
    # (signature, offset of the uncompressed size, of the name's length, of the name)
    headers = ((b"PK\x03\x04", 22, 26, 30), (b"PK\x01\x02", 24, 28, 46))
    for signature, size_offset, length_offset, name_offset in headers:
        start = 0
        while (start := patched.find(signature, start)) != -1:
            length = struct.unpack_from("<H", patched, start + length_offset)[0]
            if patched[start + name_offset : start + name_offset + length] == encoded:
                struct.pack_into("<I", patched, start + size_offset, size)
            start += 4
    return bytes(patched)


def test_a_plain_archive_is_unpacked_file_by_file(tmp_path: Path) -> None:
    data = zip_archive({"evals/a.yaml": "evalcases: []\n", "notes.md": "Notes."})

    root = extract(data, tmp_path)

    assert root == tmp_path
    assert (tmp_path / "evals/a.yaml").read_text() == "evalcases: []\n"
    assert (tmp_path / "notes.md").read_text() == "Notes."


def test_an_archive_of_one_folder_is_imported_from_that_folder(tmp_path: Path) -> None:
    data = zip_archive({"repo/evals/a.yaml": "evalcases: []\n", "repo/notes.md": "Notes."})

    assert extract(data, tmp_path) == tmp_path / "repo"


def test_the_folder_macos_adds_beside_the_content_is_left_out(tmp_path: Path) -> None:
    data = zip_archive({"repo/evals/a.yaml": "x", "__MACOSX/repo/._a.yaml": "fork"})

    assert extract(data, tmp_path) == tmp_path / "repo"
    assert not (tmp_path / "__MACOSX").exists()


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        pytest.param("../outside.md", "leaves the folder", id="parent folder"),
        pytest.param("evals/../../outside.md", "leaves the folder", id="parent folder inside"),
        pytest.param("/etc/cron.d/job", "absolute path", id="absolute"),
        pytest.param("C:/Windows/evil.dll", "absolute path", id="drive letter"),
        pytest.param("evals\\..\\..\\outside.md", "backslash", id="backslashes"),
        pytest.param("evals/bell\x07.md", "control characters", id="control character"),
    ],
)
def test_an_entry_that_would_leave_the_folder_is_refused_by_name(
    tmp_path: Path, name: str, reason: str
) -> None:
    target = tmp_path / "target"
    target.mkdir()

    with pytest.raises(ZipRefused) as refused:
        extract(with_entry(zipfile.ZipInfo(name)), target)

    assert refused.value.entry == name
    assert reason in refused.value.message
    assert not (tmp_path / "outside.md").exists()


def test_a_symbolic_link_entry_is_refused(tmp_path: Path) -> None:
    link = zipfile.ZipInfo("evals/secrets.md")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16

    with pytest.raises(ZipRefused) as refused:
        extract(with_entry(link, b"/etc/passwd"), tmp_path)

    assert refused.value.entry == "evals/secrets.md"
    assert "symbolic link" in refused.value.message
    assert not (tmp_path / "evals/secrets.md").exists()


def test_an_archive_with_too_many_entries_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    data = zip_archive({f"f{number}.md": "x" for number in range(SMALL.entries + 1)})

    with pytest.raises(ZipRefused, match="has 6 entries; the limit is 5"):
        extract(data, tmp_path)

    assert list(tmp_path.iterdir()) == []


def test_an_archive_declaring_more_than_the_total_limit_is_refused_before_writing(
    tmp_path: Path,
) -> None:
    data = zip_archive({f"f{number}.md": b"\0" * 1000 for number in range(5)})

    with pytest.raises(ZipRefused, match="would unpack to 5,000 bytes; the limit is 4,096"):
        extract(data, tmp_path)

    assert list(tmp_path.iterdir()) == []


def test_a_file_declared_larger_than_the_file_limit_is_refused_by_name(tmp_path: Path) -> None:
    data = zip_archive({"small.md": "x", "big.md": b"\0" * 2000})

    with pytest.raises(ZipRefused) as refused:
        extract(data, tmp_path, ZipLimits(file_bytes=1024))

    assert refused.value.entry == "big.md"
    assert "2,000 bytes; a file may be at most 1,024" in refused.value.message


def test_a_zip_bomb_at_the_default_limits_is_refused_from_its_declared_size(
    tmp_path: Path,
) -> None:
    # 65 MiB of zeros deflate to about 65 KB: a thousandfold expansion.
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("evals/bomb.yaml", "w") as member,
    ):
        for _ in range(65):
            member.write(b"\0" * 2**20)
    assert len(buffer.getvalue()) < 2**20

    with pytest.raises(ZipRefused) as refused:
        extract(buffer.getvalue(), tmp_path, ZipLimits())

    assert refused.value.entry == "evals/bomb.yaml"
    assert list(tmp_path.iterdir()) == []


def test_a_zip_bomb_that_understates_its_size_is_stopped_while_unpacking(tmp_path: Path) -> None:
    honest = zip_archive({"evals/a.yaml": "x", "bomb.md": b"\0" * 100_000})
    lying = declaring_size(honest, "bomb.md", 10)

    with pytest.raises(ZipRefused) as refused:
        extract(lying, tmp_path, ZipLimits(uncompressed_bytes=1000, file_bytes=1000))

    assert refused.value.entry == "bomb.md"
    written = tmp_path / "bomb.md"
    assert not written.exists() or written.stat().st_size <= 10


def test_an_archive_larger_than_the_upload_limit_is_refused_unread(tmp_path: Path) -> None:
    data = zip_archive({"a.md": "x" * 5000})

    with pytest.raises(ZipRefused, match="the limit is 100"):
        extract(data, tmp_path, ZipLimits(compressed_bytes=100))


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"evalcases: []\n", id="a YAML file"),
        pytest.param(zip_archive({"a.md": "x"})[:-30], id="truncated"),
    ],
)
def test_something_that_is_not_a_zip_is_refused(tmp_path: Path, data: bytes) -> None:
    with pytest.raises(ZipRefused, match="not a .zip file"):
        extract(data, tmp_path)


def test_an_archive_with_only_folders_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ZipRefused, match="holds no files"):
        extract(zip_archive({"evals/": b""}), tmp_path)


def test_an_entry_that_appears_twice_is_refused(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.md", "first")
        with pytest.warns(UserWarning, match="Duplicate name"):
            archive.writestr("a.md", "second")

    with pytest.raises(ZipRefused, match="appears twice"):
        extract(buffer.getvalue(), tmp_path)


def test_a_file_where_another_entry_needs_a_folder_is_refused(tmp_path: Path) -> None:
    data = zip_archive({"evals": "a file", "evals/a.yaml": "x"})

    with pytest.raises(ZipRefused) as refused:
        extract(data, tmp_path)

    assert refused.value.entry == "evals/a.yaml"
    assert "clashes" in refused.value.message


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        pytest.param("evals/cases\u202eLMY.yaml", "invisible formatting", id="bidi override L5"),
        pytest.param("evals/zero\u200bwidth.yaml", "invisible formatting", id="zero width"),
        pytest.param("evals/line\u2028break.yaml", "invisible formatting", id="line separator"),
        pytest.param(".GIT/config", "a name git keeps for itself", id="dotgit in capitals"),
        pytest.param("evals/git~1/hooks/x", "a name git keeps for itself", id="dotgit short name"),
        pytest.param(".gitmodules", "a name git keeps for itself", id="gitmodules"),
        pytest.param("evals/" + "n" * 256 + ".yaml", "255 bytes", id="long name"),
        pytest.param("/".join(["folder"] * 150) + "/x.md", "1000 characters", id="long path"),
    ],
)
def test_an_entry_the_path_rule_refuses_is_refused_by_name(
    tmp_path: Path, name: str, reason: str
) -> None:
    with pytest.raises(ZipRefused) as refused:
        extract(with_entry(zipfile.ZipInfo(name)), tmp_path, ZipLimits())

    assert refused.value.entry == shown(name)
    assert reason in refused.value.message
    assert not (tmp_path / "evals").exists()


def test_a_refused_entry_is_named_with_its_invisible_characters_escaped(tmp_path: Path) -> None:
    with pytest.raises(ZipRefused) as refused:
        extract(with_entry(zipfile.ZipInfo("evals/cases\u202eLMY.yaml")), tmp_path)

    assert str(refused.value).startswith("evals/cases\\u202eLMY.yaml: ")
    assert "\u202e" not in str(refused.value)


def test_the_repository_folder_of_a_zipped_checkout_is_left_out(tmp_path: Path) -> None:
    data = zip_archive({"repo/evals/a.yaml": "x", "repo/.git/config": "[core]\n"})

    assert extract(data, tmp_path) == tmp_path / "repo"
    assert not (tmp_path / "repo" / ".git").exists()
