"""Importing a workspace: from a folder or one eval file (`import_evals`), or from an uploaded
.zip unpacked safely; all or nothing (docs/user-guide.md, "Command line")."""
