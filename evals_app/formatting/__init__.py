"""The formatting engine: the eval YAML schema, YAML I/O and prompt formatting (no Django)."""
