"""Tests kept in other tools' files, read and mapped into today's AgentV tests (docs/imports.md).

Pure Python, no Django: one module per tool behind one small interface (`base.Source`: detect,
read, map), the engine that runs them over a set of files (`conversion.py`), and the writer of
the suite file with its comments (`suite_text.py`). Writing the tests into a workspace is the
service `services/imports/tests_from_tools.py`.
"""
