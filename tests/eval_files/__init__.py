"""Tests of `eval_files`: see docs/architecture.md for what the room holds."""
