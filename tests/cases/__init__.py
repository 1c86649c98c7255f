"""Tests of `cases`: see docs/architecture.md for what the room holds."""
