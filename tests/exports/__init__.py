"""Tests of `exports`: see docs/architecture.md for what the room holds."""
