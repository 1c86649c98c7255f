"""Token counts of formatted texts, offline (docs/user-guide.md, "Token counts").

The encodings are OpenAI's byte-pair encodings as the `bpe-openai` package ships them inside
its wheel: nothing is downloaded at run time. Text is counted as ordinary text: a special
token's spelling written in a case (`<|endoftext|>`) counts as the characters it is, as a
model's API reads a message.
"""

from __future__ import annotations

import functools
from typing import Literal, Protocol, cast

Encoding = Literal["o200k_base", "cl100k_base"]
# Today's OpenAI models use o200k_base; GPT-4 and GPT-3.5 use cl100k_base.
ENCODINGS: tuple[Encoding, ...] = ("o200k_base", "cl100k_base")
DEFAULT_ENCODING: Encoding = "o200k_base"


class _Encoder(Protocol):
    def encode_ordinary(self, text: str) -> list[int]: ...


@functools.cache
def _encoder(encoding: Encoding) -> _Encoder:
    # Imported and loaded on first use, once per process (about a second), then shared: a
    # process that counts no token (the worker, a command) never pays for it.
    import bpe_openai

    return cast(_Encoder, bpe_openai.get_encoding(encoding))


def count_tokens(text: str, encoding: Encoding = DEFAULT_ENCODING) -> int:
    """How many tokens `text` is in `encoding`."""
    if not text:
        return 0
    return len(_encoder(encoding).encode_ordinary(text))


def encoding_named(name: str) -> Encoding:
    """The encoding called `name`; the default for a name that is not one."""
    for encoding in ENCODINGS:
        if name == encoding:
            return encoding
    return DEFAULT_ENCODING
