"""The JSON API under /api/v1/ (docs/api.md): one router module per resource, each endpoint
a thin call of the services and the permission checks the pages use."""
