"""The case editor's state: a case of either profile as drafts parsed from the form, the
rows of named fields the template shows, the Prompts card's rows, the review panel and the
preview. No database writes here: saving is `services/cases/editing.py` (docs/user-guide.md,
"The editor").
"""
