"""Tests of `workspaces`: see docs/architecture.md for what the room holds."""
