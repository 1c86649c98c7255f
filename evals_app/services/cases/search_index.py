"""The search index over case ids and documents (docs/performance.md, "Search").

Searching is a substring match, ignoring case, on a case's id or the JSON text of its
document. Without an index every search reads every case of the suite; with one:

- **SQLite**: an FTS5 table with the trigram tokenizer over `case_id` and `document`
  (external content: the case table itself), kept up to date by triggers. It records which
  rows hold each trigram, not where (`detail=none`: a ninth of the size with positions). A
  search of three characters or more first asks it which rows hold all of the query's
  trigrams, then applies the same substring match to those rows only.
- **PostgreSQL**: pg_trgm GIN indexes on `UPPER(case_id)` and `UPPER(document)`: exactly the
  expressions Django's `icontains` compares, so the planner uses them for the search as it
  is written (rechecking every candidate).

Triggers and indexes, not application writes, keep the index right: bulk imports, syncs,
`QuerySet.update` and raw SQL all pass through them. On SQLite, a later migration that
rebuilds the case table drops its triggers; `repair_search_index` runs after every migrate
(apps.py) and puts them back, rebuilding the index (and PostgreSQL's indexes, should a
migration drop them).
"""

from __future__ import annotations

import json
import logging

from django.db import DatabaseError, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Q
from django.db.models.expressions import RawSQL

log = logging.getLogger(__name__)

CASES = "evals_app_case"
SQLITE_INDEX = "evals_app_case_search"
# The trigram tokenizer matches nothing for a phrase shorter than one trigram.
TRIGRAM = 3
# The trigrams of a query the index is asked for: enough to leave few candidates, few enough
# that a paragraph-long query stays one quick lookup.
TRIGRAMS_ASKED = 16

_SQLITE_TRIGGERS = {
    f"{SQLITE_INDEX}_insert": f"""
        CREATE TRIGGER IF NOT EXISTS {SQLITE_INDEX}_insert AFTER INSERT ON {CASES} BEGIN
            INSERT INTO {SQLITE_INDEX}(rowid, case_id, document)
            VALUES (new.id, new.case_id, new.document);
        END""",
    f"{SQLITE_INDEX}_delete": f"""
        CREATE TRIGGER IF NOT EXISTS {SQLITE_INDEX}_delete AFTER DELETE ON {CASES} BEGIN
            INSERT INTO {SQLITE_INDEX}({SQLITE_INDEX}, rowid, case_id, document)
            VALUES ('delete', old.id, old.case_id, old.document);
        END""",
    # Only a change of what is searched touches the index: summaries and review steps do not.
    f"{SQLITE_INDEX}_update": f"""
        CREATE TRIGGER IF NOT EXISTS {SQLITE_INDEX}_update
        AFTER UPDATE OF case_id, document ON {CASES} BEGIN
            INSERT INTO {SQLITE_INDEX}({SQLITE_INDEX}, rowid, case_id, document)
            VALUES ('delete', old.id, old.case_id, old.document);
            INSERT INTO {SQLITE_INDEX}(rowid, case_id, document)
            VALUES (new.id, new.case_id, new.document);
        END""",
}
POSTGRESQL_INDEXES = {
    "evals_app_case_id_trgm": f"CREATE INDEX IF NOT EXISTS evals_app_case_id_trgm ON {CASES} "
    'USING gin ((UPPER("case_id"::text)) gin_trgm_ops)',
    "evals_app_case_document_trgm": "CREATE INDEX IF NOT EXISTS evals_app_case_document_trgm "
    f'ON {CASES} USING gin ((UPPER("document"::text)) gin_trgm_ops)',
}


def install_search_index(connection: BaseDatabaseWrapper) -> None:
    """Create whatever part of the search index `connection`'s database lacks (idempotent)."""
    if CASES not in connection.introspection.table_names():
        return
    if connection.vendor == "sqlite":
        _install_sqlite(connection)
    elif connection.vendor == "postgresql":
        _install_postgresql(connection)


def repair_search_index(connection: BaseDatabaseWrapper) -> None:
    """Put back what a change of the case table dropped from an installed index: SQLite's
    triggers (then every case is read again), PostgreSQL's indexes. Nothing where the index
    was never installed (no FTS5 table; no pg_trgm extension)."""
    if connection.vendor == "sqlite":
        present = _sqlite_names(connection)
        if SQLITE_INDEX in present and not present.issuperset(_SQLITE_TRIGGERS):
            _install_sqlite(connection)
    elif connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
            if cursor.fetchone() is not None:
                for statement in POSTGRESQL_INDEXES.values():
                    cursor.execute(statement)


def remove_search_index(connection: BaseDatabaseWrapper) -> None:
    """Drop the search index (the migration's way back)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            for trigger in _SQLITE_TRIGGERS:
                cursor.execute(f"DROP TRIGGER IF EXISTS {trigger}")
            cursor.execute(f"DROP TABLE IF EXISTS {SQLITE_INDEX}")
        elif connection.vendor == "postgresql":
            for index in POSTGRESQL_INDEXES:
                cursor.execute(f"DROP INDEX IF EXISTS {index}")


def _sqlite_names(connection: BaseDatabaseWrapper) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger') AND name LIKE %s",
            [f"{SQLITE_INDEX}%"],
        )
        return {name for (name,) in cursor.fetchall()}


def _install_sqlite(connection: BaseDatabaseWrapper) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {SQLITE_INDEX} USING fts5("
            f"case_id, document, content='{CASES}', content_rowid='id', tokenize='trigram', "
            "detail='none')"
        )
        for statement in _SQLITE_TRIGGERS.values():
            cursor.execute(statement)
        # Every case read (again): whatever changed while a trigger was missing, too.
        cursor.execute(f"INSERT INTO {SQLITE_INDEX}({SQLITE_INDEX}) VALUES ('rebuild')")


def _install_postgresql(connection: BaseDatabaseWrapper) -> None:
    with connection.cursor() as cursor:
        try:
            # pg_trgm ships with PostgreSQL and is a trusted extension (13+): the database's
            # owner may create it. Without it, search still works, reading every case.
            with transaction.atomic(using=connection.alias):
                cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        except DatabaseError as error:
            log.warning("No search index: the pg_trgm extension cannot be created (%s).", error)
            return
        for statement in POSTGRESQL_INDEXES.values():
            cursor.execute(statement)


def update_planner_statistics(connection: BaseDatabaseWrapper) -> None:
    """Let the query planner know how many cases a suite holds, after writing many.

    Without statistics SQLite takes `suite_id = ?` for a handful of rows, and reads a whole
    suite in order rather than the few rows the search index found; PostgreSQL's planner does
    the same with the statistics of an emptier table (ANALYZE samples 30,000 rows: seconds).
    SQLite's ANALYZE reads every row (half a second at 100k cases): a sample of a thousand rows
    an index told it every suite holds as many rows as the cases with warnings, and it then
    counted a large suite's warnings by reading the whole suite.
    """
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("ANALYZE")
        elif connection.vendor == "postgresql":
            # Autovacuum gets there, but minutes after a bulk write: until then the planner
            # takes a 100,000-case suite for a few hundred rows and skips the trigram indexes,
            # and counting a range of the (suite, position) index reads the table, as the
            # rows are not yet marked visible to all (VACUUM does; 11 against 64 ms for half
            # a 100,000-case suite). VACUUM reads only the pages written since the last one;
            # it cannot run inside a transaction, where ANALYZE alone does.
            analyze = "ANALYZE" if connection.in_atomic_block else "VACUUM (ANALYZE)"
            cursor.execute(f"{analyze} {CASES}")


def search_filter(query: str, vendor: str) -> Q:
    """A case whose id or any text of its document (turns, files' paths, outcome, other
    fields) holds `query`, ignoring case as the database's LIKE does; on SQLite, through the
    trigram index when `query` is long enough to have a trigram."""
    # The document is stored as JSON text: the query is looked for as JSON writes it, so
    # quotes, backslashes and line breaks in it match too.
    as_json = json.dumps(query, ensure_ascii=False)[1:-1]
    matching = Q(case_id__icontains=query) | Q(document__icontains=as_json)
    if vendor != "sqlite" or len(query) < TRIGRAM:
        return matching
    # The index finds every row holding trigrams of the query (case folded as LIKE folds it,
    # and more): a superset of the substring matches, which the substring match then narrows
    # to exactly today's results.
    wanted = " OR ".join(dict.fromkeys(_all_trigrams(text) for text in (query, as_json)))
    candidates = RawSQL(f"SELECT rowid FROM {SQLITE_INDEX} WHERE {SQLITE_INDEX} MATCH %s", [wanted])
    return Q(pk__in=candidates) & matching


def _all_trigrams(text: str) -> str:
    """An FTS5 query for the rows holding every one of (up to TRIGRAMS_ASKED of) the trigrams
    of `text`, each quoted (its own quotes doubled)."""
    trigrams = list(dict.fromkeys(text[start : start + TRIGRAM] for start in range(len(text) - 2)))
    if len(trigrams) > TRIGRAMS_ASKED:
        step = len(trigrams) / TRIGRAMS_ASKED
        trigrams = [trigrams[int(index * step)] for index in range(TRIGRAMS_ASKED)]
    quoted = ['"' + trigram.replace('"', '""') + '"' for trigram in trigrams]
    return "(" + " AND ".join(quoted) + ")"
