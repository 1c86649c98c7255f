"""Seeded workspaces like real eval files, of any size: the large fixtures of the tests and
the workload `make bench` measures (docs/performance.md)."""
