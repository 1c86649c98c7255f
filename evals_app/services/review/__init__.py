"""Reviewing cases: the review workflow, comment threads, revisions, and every diff between two
versions of a case (turns, formatted prompts, documents) (docs/user-guide.md, "Reviewing as a
team")."""
