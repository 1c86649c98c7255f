"""`manage.py create_api_token USERNAME [--name NAME]`: a token for scripts, printed once."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from evals_app.services.api_tokens import TokenNameError, create_token


class Command(BaseCommand):
    help = "Create an API token for USERNAME and print it (it is stored only as a hash)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="command line", help="what the token is for")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no account named {options['username']!r}")
        if not user.is_active:
            raise CommandError(f"the account {user.username!r} is deactivated")
        try:
            _, token = create_token(user, options["name"])
        except TokenNameError as error:
            raise CommandError(str(error)) from None
        # Only the token on standard output, so that `$(manage.py create_api_token …)` works.
        self.stdout.write(token)
        self.stderr.write(f"Created the API token {options['name']!r} for {user.username}.")
