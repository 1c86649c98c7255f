"""Tests of `profiles`: see docs/architecture.md for what the room holds."""
