"""A new workspace while its import writes it: hidden from everyone (the default manager,
`Workspace.objects`, leaves it out) until one short transaction reveals it; removed in short
transactions when the import fails, is cancelled, or its process died (docs/jobs.md, "Imports").
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from ...eval_files.errors import EvalFileError
from ...models import Case, Suite, Workspace
from ..jobs.workers import process_is_gone, this_worker
from ..workspaces.lifecycle import unique_slug
from .folder_reading import ImportFailed

REMOVE_BATCH = 1000  # rows deleted per transaction, so that saves elsewhere never wait long


def hidden_workspace(name: str, checkout_folder: str) -> Workspace:
    """A new workspace named `name`, hidden and marked as this process's import.

    Raises ImportFailed when the name was taken meanwhile (or another import holds it)."""
    try:
        with transaction.atomic():
            return Workspace.all_objects.create(
                name=name,
                slug=unique_slug(name),
                checkout_folder=checkout_folder,
                importing_process=this_worker(),
            )
    except IntegrityError:
        message = f"a workspace named {name!r} already exists or is being imported"
        raise ImportFailed([EvalFileError(message)]) from None


def still_importing(workspace: Workspace) -> None:
    """A sign of life of the import (its batches call it): another machine takes a workspace
    not touched for a while for abandoned (jobs/workers.py, STALE_AFTER)."""
    Workspace.all_objects.filter(pk=workspace.pk).update(updated_at=timezone.now())


def reveal(workspace: Workspace) -> None:
    """Make the imported workspace visible; call inside the import's final transaction."""
    Workspace.all_objects.filter(pk=workspace.pk).update(importing_process="")
    workspace.importing_process = ""


def remove_hidden(workspace_pk: int) -> None:
    """Delete a hidden workspace and what its import wrote, in short transactions (cases,
    then suites, then the rest)."""
    hidden = Workspace.all_objects.filter(pk=workspace_pk).exclude(importing_process="")
    for model, rows in (
        (Case, Case.objects.filter(suite__workspace__in=hidden)),
        (Suite, Suite.objects.filter(workspace__in=hidden)),
    ):
        while pks := list(rows.values_list("pk", flat=True)[:REMOVE_BATCH]):
            with transaction.atomic():
                model.objects.filter(pk__in=pks).delete()
    with transaction.atomic():
        hidden.delete()


def remove_abandoned_imports() -> None:
    """Remove the hidden workspaces whose importing process is gone (killed, crashed)."""
    hidden = Workspace.all_objects.exclude(importing_process="")
    for pk, process, touched in hidden.values_list("pk", "importing_process", "updated_at"):
        if process_is_gone(process, touched):
            remove_hidden(pk)
