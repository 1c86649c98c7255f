"""Tests of `api`: see docs/architecture.md for what the room holds."""
