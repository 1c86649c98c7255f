"""Tests of `admin`: see docs/architecture.md for what the room holds."""
