"""Words and sentence shapes the workspace generator draws from."""

from __future__ import annotations

from tests.workload.authored_yaml import PlainWord

AREAS = ("support", "coding", "billing", "search", "onboarding", "agents", "data", "security")
GUIDELINE_TOPICS = ("support-tone", "code-review", "billing-policy", "tool-use", "privacy")
CODE_LANGUAGES = (("python", "py"), ("javascript", "js"), ("typescript", "ts"))

NOUNS = (
    "invoice", "refund", "account", "order", "webhook", "token", "session", "report", "cart",
    "checkout", "deploy", "pipeline", "query", "index", "cache", "ticket", "customer", "plan",
    "subscription", "payment", "release", "branch", "test", "schema", "migration", "queue",
    "worker", "endpoint", "request", "response", "timeout", "retry", "export", "import",
    "dashboard", "widget", "search", "filter", "profile", "password", "device", "region",
    "shipment", "carrier", "warehouse", "budget", "forecast", "model", "prompt", "dataset",
)  # fmt: skip

VERBS = (
    "fails", "retries", "times out", "returns", "drops", "duplicates", "rejects", "accepts",
    "charges", "refunds", "renders", "indexes", "caches", "expires", "rotates", "syncs",
    "exports", "imports", "validates", "escalates", "archives", "restores", "throttles",
)  # fmt: skip

SENTENCE_TEMPLATES = (
    "The {noun} {verb} after {number} seconds whenever the {other} is updated.",
    "Why does the {noun} keep failing when I open the {other} page?",
    "I checked the {noun} twice and it still {verb} for about {number} users.",
    "Could you explain what happens to the {other} when the {noun} {verb}?",
    "Our {noun} job {verb} every night; the {other} report shows {number} errors.",
    "Please summarise the {noun} policy in two sentences for a new {other} owner.",
    "Mentions that the {noun} {verb} because the {other} limit is {number} per hour.",
    "Does not promise a {noun} before the {other} team has confirmed it.",
    "Note: the {noun} API returns HTTP {number} when the {other} header is missing.",
    "Asks for the {noun} id and the exact error before suggesting a fix to the {other}.",
    "Se requiere confirmar el {noun} antes de cambiar el {other} (ünïcödé ok).",
    "顧客の{noun}について、{other}の状態を確認してください。",
    "Step {number}: restart the {noun} worker, then re-run the {other} check.",
    "It says 'invalid {noun}' and then the {other} page goes blank — any idea?",
    "The {noun} #{number} was closed, but the {other} still {verb}.",
)

TRICKY_VALUES = (
    PlainWord("yes"),
    PlainWord("no"),
    PlainWord("on"),
    "1_000",
    "2024-03-11",
    "0o17",
    "- not a list item",
    "key: not a mapping",
    "@[User]: this is text, not a marker",
    "Tab\tseparated\tvalues",
    "Thanks! 🎉",
    "  indented text  ",
    "trailing space ",
    "line one  \nline two with a trailing space above\n",
)
