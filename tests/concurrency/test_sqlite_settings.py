"""SQLite, the single-user default, is set up for writers that overlap (agentv_web/settings.py):
WAL, a busy timeout, transactions that take the write lock when they start, and a page cache
that holds a large import's pages."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite settings"),
]


def pragma(name: str) -> object:
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA {name}")
        return cursor.fetchone()[0]


def test_sqlite_writes_ahead_and_waits_for_a_busy_database() -> None:
    assert pragma("journal_mode") == "wal"
    assert pragma("busy_timeout") == 20_000


def test_sqlite_transactions_take_the_write_lock_when_they_start() -> None:
    assert connection.transaction_mode == "IMMEDIATE"


def test_sqlite_keeps_a_page_cache_large_enough_for_an_import() -> None:
    assert pragma("cache_size") == -65536  # KiB: up to 64 MB a connection


def test_sqlite_syncs_its_log_at_checkpoints_not_at_every_commit() -> None:
    # synchronous=NORMAL (1): a commit waits for no disk flush, so a save is not held up by
    # another writer's flush; a power cut may lose the last commits, never corrupt the file.
    assert pragma("synchronous") == 1
