"""Token counts equal the reference tokenizer's (docs/user-guide.md, "Token counts").

The reference values are tiktoken's own: tiktoken 0.14 with its published definitions of each
encoding, reading the encoding files whose SHA-256 tiktoken publishes, counting ordinary text.
"""

from __future__ import annotations

import pytest

from evals_app.formatting.token_counts import (
    DEFAULT_ENCODING,
    ENCODINGS,
    count_tokens,
    encoding_named,
)

TEXTS = {
    "english": "Refund the second charge and apologise to the customer.",
    "german": "Grüß Gott! Die Straße ist nass, weil es geregnet hat.",
    "japanese": "東京で一番美味しいラーメン屋はどこですか？",
    "chinese": "请把第二笔扣款退还给客户，并向他道歉。",
    "arabic": "مرحبا بالعالم، كيف حالك اليوم؟",
    "hindi": "नमस्ते दुनिया, आप कैसे हैं?",
    "russian": "Привет, мир! Как дела сегодня?",
    "code": 'def total(items: list[int]) -> int:\n    """Sum them."""\n'
    "    return sum(i * 2 for i in items if i % 3 == 0)\n",
    "json": '{"tool": "search", "input": {"query": "refund policy", "limit": 10}}',
    "emoji": "Great job 🎉🎉 👩‍👩‍👧‍👦 🇫🇷 ❤️‍🔥 👍🏽",
    "whitespace": "line one\n\n\n    indented\ttab   spaces  \r\nend",
    "special": "<|endoftext|> is written, not sent as a special token",
    "numbers": "1234567890 3.14159 1,000,000 -42 0x1F",
    "long": "The quick brown fox jumps over the lazy dog. " * 400 + "Ünïcödé " * 100,
    "repeated": "A" * 5000,
}

# (text, o200k_base, cl100k_base), as tiktoken counts them.
REFERENCE = [
    ("english", 10, 11),
    ("german", 16, 19),
    ("japanese", 18, 23),
    ("chinese", 16, 22),
    ("arabic", 10, 23),
    ("hindi", 10, 27),
    ("russian", 9, 16),
    ("code", 35, 35),
    ("json", 22, 22),
    ("emoji", 27, 43),
    ("whitespace", 11, 11),
    ("special", 16, 16),
    ("numbers", 22, 22),
    ("long", 4401, 4701),
    ("repeated", 625, 625),
]


@pytest.mark.parametrize(("name", "o200k", "cl100k"), REFERENCE)
def test_counts_equal_the_reference_tokenizers(name: str, o200k: int, cl100k: int) -> None:
    assert count_tokens(TEXTS[name], "o200k_base") == o200k
    assert count_tokens(TEXTS[name], "cl100k_base") == cl100k


def test_empty_text_is_no_token() -> None:
    assert count_tokens("") == 0


def test_the_default_encoding_is_todays_openai_models() -> None:
    assert DEFAULT_ENCODING == "o200k_base"
    assert count_tokens(TEXTS["emoji"]) == 27


@pytest.mark.parametrize(
    ("name", "expected"),
    [("cl100k_base", "cl100k_base"), ("o200k_base", "o200k_base"), ("p50k_base", "o200k_base")],
)
def test_an_unknown_encoding_name_means_the_default(name: str, expected: str) -> None:
    assert encoding_named(name) == expected
    assert expected in ENCODINGS
