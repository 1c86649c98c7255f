"""The remote a workspace was linked to from the browser, and its encrypted credential."""

from __future__ import annotations

from django.db import models

from .workspace import Workspace


class RepositoryRemote(models.Model):
    """A repository linked by URL (docs/sync.md, "Remotes"): the server keeps its own bare clone
    (the workspace's `repository_path`), fetches from `url` and pushes each publish there."""

    class Credential(models.TextChoices):
        NONE = "", "None"
        TOKEN = "token", "HTTPS token"
        SSH_KEY = "ssh_key", "SSH deploy key"

    workspace = models.OneToOneField(Workspace, on_delete=models.CASCADE, related_name="remote")
    url = models.CharField(max_length=1000)
    # The branch the link started from: the target of the compare/pull-request link.
    branch = models.CharField(max_length=250)
    credential_kind = models.CharField(
        max_length=10, choices=Credential.choices, blank=True, default=""
    )
    # Fernet's token of the secret (AGENTV_CREDENTIALS_KEY); never shown, never decrypted but
    # to hand it to git.
    credential = models.BinaryField(blank=True, default=b"", editable=False)
    # The branch the last publish pushed, for the compare link the workspace page shows.
    pushed_branch = models.CharField(max_length=250, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.url
