"""Business rules: plain functions that read and change the database, used by views, the API
and commands. One room per capability: `workspaces/`, `suites/`, `cases/`, `review/`,
`repository/`, `imports/`, `exports/`, and `profiles/`, the one place that knows the AgentV
profiles (docs/architecture.md)."""
