"""The search index over case ids and documents: FTS5 (trigram) on SQLite, pg_trgm on
PostgreSQL (evals_app/services/cases/search_index.py); and the indexes of the suite page's
sort by last change, warnings filter and open conflicts."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from evals_app.services.cases.search_index import install_search_index, remove_search_index


def install(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    install_search_index(schema_editor.connection)


def remove(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    remove_search_index(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("evals_app", "0017_review")]

    operations = [
        migrations.RunPython(install, remove),
        migrations.AddIndex(
            model_name="case",
            index=models.Index(
                fields=["suite", "updated_at", "position"], name="case_changed_oldest"
            ),
        ),
        migrations.AddIndex(
            model_name="case",
            index=models.Index(
                fields=["suite", "-updated_at", "position"], name="case_changed_newest"
            ),
        ),
        migrations.AddIndex(
            model_name="case",
            index=models.Index(
                condition=models.Q(role_markers__isnull=False) & ~models.Q(format_warnings=[]),
                fields=["suite", "position"],
                name="case_with_warnings",
            ),
        ),
        migrations.AddIndex(
            model_name="case",
            index=models.Index(
                condition=models.Q(theirs_document__isnull=False),
                fields=["suite", "position"],
                name="case_in_conflict",
            ),
        ),
    ]
