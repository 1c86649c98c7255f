"""The upgrade page's `code_spans` filter: quoted keys as code, everything escaped."""

from __future__ import annotations

import pytest

from evals_app.templatetags.upgrade_tags import code_spans


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("`outcome` → `criteria`", "<code>outcome</code> → <code>criteria</code>"),
        ("no keys", "no keys"),
        ("`<b>` & x", "<code>&lt;b&gt;</code> &amp; x"),
        ("one ` backtick <i>", "one ` backtick &lt;i&gt;"),
    ],
)
def test_code_spans(text: str, html: str) -> None:
    assert code_spans(text) == html
