"""The performance benchmark: a seeded workspace generator and `make bench` (see README)."""
