"""Long operations run by the worker, with progress, cancellation and one job at a time per
workspace (docs/jobs.md)."""
