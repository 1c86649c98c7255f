"""Running a case or a suite with AgentV itself, in the worker, and keeping its results
(docs/runs.md)."""
