"""Workspaces made, renamed and deleted from the browser; their creator becomes the owner."""

from __future__ import annotations

import unicodedata

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.text import slugify

from ...formatting.token_counts import ENCODINGS
from ...models import ActivityRecord, Membership, Workspace
from .activity import record_activity

MAX_NAME_LENGTH = 200  # the max_length of Workspace.name and Workspace.slug


class WorkspaceNameError(Exception):
    """A workspace name that cannot be used: empty, too long, unprintable or taken."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def clean_workspace_name(raw: str, *, renaming: Workspace | None = None) -> str:
    """`raw` without surrounding spaces, if no other workspace has it (ignoring case).

    `renaming` is the workspace being renamed, whose own name does not count as taken.
    Raises WorkspaceNameError saying what is wrong otherwise.
    """
    name = raw.strip()
    if not name:
        raise WorkspaceNameError("A workspace needs a name.")
    if len(name) > MAX_NAME_LENGTH:
        raise WorkspaceNameError(f"A name can be at most {MAX_NAME_LENGTH} characters.")
    if any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in name):
        raise WorkspaceNameError("A name cannot contain control or invisible characters.")
    # A workspace being imported holds its name already (services/imports/staging.py).
    taken = Workspace.all_objects.filter(name__iexact=name)
    if renaming is not None:
        taken = taken.exclude(pk=renaming.pk)
    if taken.exists():
        raise name_taken(name)
    return name


def name_taken(name: str) -> WorkspaceNameError:
    """The refusal of a name another workspace has: the same words whoever owns it, so that
    nobody learns more than that the name is taken."""
    return WorkspaceNameError(f"A workspace named {name!r} already exists; choose another name.")


def unique_slug(name: str, *, renaming: Workspace | None = None) -> str:
    """A slug for `name` that no other workspace uses (`name-2`, `name-3`… when taken)."""
    base = (slugify(name) or "workspace")[: MAX_NAME_LENGTH - 10]
    everyone = Workspace.all_objects.all()  # a workspace being imported included
    others = everyone.exclude(pk=renaming.pk) if renaming else everyone
    slug, number = base, 1
    while others.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def create_workspace(name: str, creator: User) -> Workspace:
    """An empty workspace named `name`, owned by `creator`.

    Raises WorkspaceNameError when the name cannot be used.
    """
    with transaction.atomic():
        name = clean_workspace_name(name)
        workspace = Workspace.objects.create(name=name, slug=unique_slug(name))
        Membership.objects.create(workspace=workspace, user=creator, role=Membership.Role.OWNER)
        record_activity(workspace, creator, ActivityRecord.Action.WORKSPACE_CREATED, name)
    return workspace


def rename_workspace(workspace: Workspace, name: str, actor: User | None = None) -> Workspace:
    """Give `workspace` the name `name` and a slug (its address) that follows it.

    Raises WorkspaceNameError when the name cannot be used.
    """
    with transaction.atomic():
        locked = Workspace.objects.select_for_update().get(pk=workspace.pk)
        name = clean_workspace_name(name, renaming=locked)
        if name == locked.name:
            return locked
        old_name = locked.name
        locked.name = name
        locked.slug = unique_slug(name, renaming=locked)
        locked.save(update_fields=["name", "slug", "updated_at"])
        action = ActivityRecord.Action.WORKSPACE_RENAMED
        record_activity(locked, actor, action, name, f"from {old_name}")
    return locked


def delete_workspace(workspace: Workspace, typed_name: str) -> None:
    """Delete `workspace` with everything in it, if `typed_name` is its name (a confirmation).

    Raises WorkspaceNameError when the typed name does not match.
    """
    if typed_name.strip() != workspace.name:
        raise WorkspaceNameError(f"Type the workspace's name, {workspace.name}, to delete it.")
    with transaction.atomic():
        Workspace.objects.filter(pk=workspace.pk).delete()


class CheckoutFolderError(Exception):
    """A checkout folder that cannot be used: too long or with control characters."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def clean_checkout_folder(raw: str) -> str:
    """A checkout folder as stored: no surrounding spaces and no trailing `/` (the root
    itself stays `/`); empty means unknown (docs/formatting.md, "Agent mode's absolute paths").

    Raises CheckoutFolderError when it cannot be a folder.
    """
    folder = raw.strip()
    if any(unicodedata.category(char).startswith("C") for char in folder):
        raise CheckoutFolderError("A folder has no line breaks or control characters.")
    if len(folder) > MAX_CHECKOUT_FOLDER_LENGTH:
        raise CheckoutFolderError(f"A folder has at most {MAX_CHECKOUT_FOLDER_LENGTH} characters.")
    return folder.rstrip("/") or folder[:1]


MAX_CHECKOUT_FOLDER_LENGTH = 1000  # the max_length of Workspace.checkout_folder


# The largest context window the setting takes: ten million tokens, beyond any model's.
MAX_CONTEXT_WINDOW = 10_000_000


def set_token_counts(workspace: Workspace, encoding: str, context_window: int) -> Workspace:
    """Store how the editor counts tokens and the context window it counts them against
    (docs/user-guide.md, "Token counts"). Raises ValueError for an encoding or a window the
    setting does not take (the form refuses them first)."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}")
    if not 1 <= context_window <= MAX_CONTEXT_WINDOW:
        raise ValueError(f"a context window is 1 to {MAX_CONTEXT_WINDOW} tokens")
    with transaction.atomic():
        locked = Workspace.objects.select_for_update().get(pk=workspace.pk)
        locked.token_encoding = encoding
        locked.context_window = context_window
        locked.save(update_fields=["token_encoding", "context_window", "updated_at"])
    return locked


def set_checkout_folder(workspace: Workspace, raw: str) -> Workspace:
    """Store where the workspace's repository is checked out, for agent mode's absolute paths.

    Raises CheckoutFolderError when the folder cannot be used.
    """
    folder = clean_checkout_folder(raw)
    with transaction.atomic():
        locked = Workspace.objects.select_for_update().get(pk=workspace.pk)
        if locked.checkout_folder != folder:
            locked.checkout_folder = folder
            locked.save(update_fields=["checkout_folder", "updated_at"])
    return locked
