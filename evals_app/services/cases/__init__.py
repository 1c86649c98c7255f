"""Cases of a suite: their list (add, duplicate, delete, reorder, bulk actions), saving from the
editor or pasted YAML, tags, the stored summaries the suite page lists, and reading their
documents in bulk."""
