"""Tests of `suites`: see docs/architecture.md for what the room holds."""
