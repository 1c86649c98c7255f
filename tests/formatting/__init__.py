"""Tests of `formatting`: see docs/architecture.md for what the room holds."""
