"""Workspaces: making, renaming and deleting them, their members, their text files and the
paths those may have, their `.agentv/config.yaml` files, and their activity feed."""
