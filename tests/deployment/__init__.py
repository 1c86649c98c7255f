"""Tests of `deployment`: see docs/architecture.md for what the room holds."""
