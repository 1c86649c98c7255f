"""Tests of `repository`: see docs/architecture.md for what the room holds."""
