"""Tests of `pages`: see docs/architecture.md for what the room holds."""
