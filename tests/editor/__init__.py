"""Tests of `editor`: see docs/architecture.md for what the room holds."""
