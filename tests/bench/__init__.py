"""Tests of `bench`: see docs/architecture.md for what the room holds."""
