"""Tests of `review`: see docs/architecture.md for what the room holds."""
