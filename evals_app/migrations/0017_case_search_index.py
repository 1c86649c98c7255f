"""The search index over case ids and documents: FTS5 (trigram) on SQLite, pg_trgm on
PostgreSQL (evals_app/services/cases/search_index.py)."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from evals_app.services.cases.search_index import install_search_index, remove_search_index


def install(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    install_search_index(schema_editor.connection)


def remove(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    remove_search_index(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("evals_app", "0016_jobs")]

    operations = [migrations.RunPython(install, remove)]
