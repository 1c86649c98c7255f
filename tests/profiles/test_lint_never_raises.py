"""The linter never raises on a case the app can store, of either profile, whatever its suite's
header (docs/user-guide.md, "Lint rules")."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evals_app.formatting.lint import lint_case, lint_suite
from evals_app.formatting.workspace_files import MappingFiles
from evals_app.services.profiles import PROFILES, SuiteProfile
from evals_app.services.profiles.linting import lint_subject
from tests.strategies import extra_values, keys, period_cases, today_tests, tricky_text

headers = st.fixed_dictionaries(
    {},
    optional={
        "prompts": st.one_of(tricky_text, st.lists(tricky_text, max_size=2), extra_values),
        "default_test": st.dictionaries(st.sampled_from(["vars", "assert"]), extra_values),
        "assert": extra_values,
        "evaluators": extra_values,
    },
)
documents = st.one_of(
    period_cases(),
    today_tests(),
    # Whatever else a mapping holds: the metadata, roles and contents a hostile file may have.
    st.dictionaries(
        st.sampled_from(
            [
                "id",
                "input",
                "input_messages",
                "expected_output",
                "metadata",
                "vars",
                "turns",
                "rubrics",
                "assert",
                "criteria",
                "input_files",
                "execution",
            ]
        )
        | keys,
        extra_values,
    ).map(lambda document: {"id": "case", **document}),
)


@settings(max_examples=150, deadline=None)
@given(
    document=documents,
    header=headers,
    profile=st.sampled_from(PROFILES),
    metadata=st.one_of(
        st.none(), extra_values, st.dictionaries(st.just("lint_ignore"), extra_values)
    ),
)
def test_the_linter_never_raises(
    document: dict[str, Any], header: dict[str, Any], profile: SuiteProfile, metadata: Any
) -> None:
    if metadata is not None:
        document = {**document, "metadata": metadata}
    files = MappingFiles({"evals/notes.md": "notes"})
    subject = lint_subject(
        profile, document, header, eval_path="evals/suite.yaml", files=files, question=str(document)
    )
    if subject is None:
        return
    for finding in lint_case(subject):
        assert finding.message and finding.rule
    assert len(lint_suite([subject, subject])) == 2
