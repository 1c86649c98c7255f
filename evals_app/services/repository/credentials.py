"""A linked remote's credential: stored encrypted, and handed to git for one command only
(docs/sync.md, "Credentials")."""

from __future__ import annotations

import base64
import shlex
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.views.decorators.debug import sensitive_variables

from ...models import RepositoryRemote
from . import git as git_repository

Credential = RepositoryRemote.Credential
# The user name a token goes with over HTTPS: GitHub, GitLab and Gitea take the token as the
# password of any user name.
TOKEN_USER = "x-access-token"
MAX_SECRET_CHARACTERS = 16_384


class CredentialError(Exception):
    """A credential that cannot be stored or used; the message never holds the secret."""


@sensitive_variables("secret")
def encrypt(secret: str) -> bytes:
    """The secret encrypted with AGENTV_CREDENTIALS_KEY. Raises CredentialError without it."""
    return _fernet().encrypt(secret.encode("utf-8"))


@sensitive_variables("secret")
def check_secret(kind: str, secret: str) -> str:
    """The secret as it will be stored (surrounding blank space removed). Raises
    CredentialError for an empty or oversized one, or one that is no SSH private key."""
    secret = secret.strip()
    if not secret:
        raise CredentialError("Give the token or the key, or choose no credential.")
    if len(secret) > MAX_SECRET_CHARACTERS:
        raise CredentialError(f"The credential is longer than {MAX_SECRET_CHARACTERS} characters.")
    if kind == Credential.TOKEN and any(ord(c) < 33 for c in secret):
        raise CredentialError("A token has no spaces or line breaks.")
    if kind == Credential.SSH_KEY and "PRIVATE KEY-----" not in secret:
        raise CredentialError("An SSH deploy key is a private key (-----BEGIN … PRIVATE KEY-----).")
    return secret


@sensitive_variables("key")
def _fernet() -> Fernet:
    key = settings.AGENTV_CREDENTIALS_KEY
    if not key:
        raise CredentialError(
            "Credentials cannot be stored or used: the server has no AGENTV_CREDENTIALS_KEY "
            "(docs/configuration.md). Link without a credential, or ask the operator to set it."
        )
    return Fernet(key)


@contextmanager
def transport_for(remote: RepositoryRemote) -> Iterator[git_repository.Transport]:
    """How git reaches `remote` for the commands run inside the block: a token as an HTTPS
    header for that URL only, or the deploy key in a private temporary file removed after.

    The secret lives in the decorated helpers' frames and in the Transport (whose repr hides
    it), never in a local of this generator, whose frame an error report would show whole.
    """
    protocols = tuple(settings.AGENTV_REPOSITORY_PROTOCOLS)
    if remote.credential_kind == Credential.NONE:
        # The server's own SSH keys and configuration, but never a prompt.
        yield git_repository.Transport(protocols, {"GIT_SSH_COMMAND": "ssh -o BatchMode=yes"})
        return
    if remote.credential_kind == Credential.TOKEN:
        yield _token_transport(remote, protocols)
        return
    with tempfile.TemporaryDirectory(prefix="agentv-key-") as folder:
        yield _key_transport(remote, protocols, Path(folder) / "deploy_key")


@sensitive_variables("secret")
def _decrypted(remote: RepositoryRemote) -> str:
    try:
        return _fernet().decrypt(bytes(remote.credential)).decode("utf-8")
    except InvalidToken:
        raise CredentialError(
            "The stored credential cannot be read with this AGENTV_CREDENTIALS_KEY; "
            "link the repository again with its credential."
        ) from None


@sensitive_variables("secret", "basic", "environment")
def _token_transport(
    remote: RepositoryRemote, protocols: tuple[str, ...]
) -> git_repository.Transport:
    secret = _decrypted(remote)
    basic = base64.b64encode(f"{TOKEN_USER}:{secret}".encode()).decode("ascii")
    environment = {
        # Configuration through the environment, not `-c`: another user of the machine
        # can read a process's arguments, not its environment.
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": f"http.{remote.url}.extraHeader",
        "GIT_CONFIG_VALUE_0": f"Authorization: Basic {basic}",
    }
    return git_repository.Transport(protocols, environment, (secret, basic))


@sensitive_variables("secret")
def _key_transport(
    remote: RepositoryRemote, protocols: tuple[str, ...], key_file: Path
) -> git_repository.Transport:
    secret = _decrypted(remote)
    key_file.touch(mode=0o600)
    key_file.write_text(secret + "\n", encoding="utf-8")
    known_hosts = Path(settings.AGENTV_REPOSITORIES_DIR) / "known_hosts"
    command = [
        "ssh",
        "-F",
        "/dev/null",
        "-i",
        str(key_file),
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "BatchMode=yes",
        "-o",
        "StrictHostKeyChecking=accept-new",
        "-o",
        f"UserKnownHostsFile={known_hosts}",
    ]
    environment = {"GIT_SSH_COMMAND": shlex.join(command)}
    return git_repository.Transport(protocols, environment, (secret,))
