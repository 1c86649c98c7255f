"""Suites (eval files): adding, renaming and deleting them, their top-level fields and prompts,
and upgrading an older suite to today's format (docs/user-guide.md)."""
