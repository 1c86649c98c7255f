"""The AgentV 2025 profile: how the 2025 AgentV formats a case of an `evalcases`/`eval_cases`
file (docs/formatting.md, "The AgentV 2025 profile")."""
