"""The linked git repository: the one module that runs git, reading a commit, the three-way rule
of a sync, publishing a commit (and repairing one a crash left half done), and resolving the
conflicts a sync leaves (docs/sync.md)."""
