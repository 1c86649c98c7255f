"""A transaction that only reads: a dry run's (docs/sync.md, "The three-way rule").

On SQLite every transaction of the app begins IMMEDIATE, taking the database's one writer so
that two writers never fail halfway (settings.py). A check of a large repository reads for
seconds to minutes; holding the writer all that time made every save, and a second worker
asking for its next job, wait and fail after the 20 s lock timeout. A read transaction begins
DEFERRED: it sees one state of the database (WAL), and writers go on beside it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def read_transaction() -> Iterator[None]:
    """`transaction.atomic()` for work that writes nothing; rolled back at its end."""
    sqlite = connection.vendor == "sqlite"
    if sqlite:
        # Read when the transaction begins; inside one, nested blocks are savepoints.
        connection.ensure_connection()
        mode = connection.transaction_mode  # type: ignore[attr-defined]  # SQLite's only
        connection.transaction_mode = "DEFERRED"  # type: ignore[attr-defined]
    try:
        with transaction.atomic():
            yield
            transaction.set_rollback(True)
    finally:
        if sqlite:
            connection.transaction_mode = mode  # type: ignore[attr-defined]
