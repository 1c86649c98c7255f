"""Exporting a workspace: its eval files, stored files and `formatted.jsonl`, written atomically,
in worker processes when it is large (docs/formats.md, "Export")."""
