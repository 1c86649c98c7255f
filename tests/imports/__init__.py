"""Tests of `imports`: see docs/architecture.md for what the room holds."""
