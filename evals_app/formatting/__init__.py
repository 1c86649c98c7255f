"""Formatting eval cases into prompts: the question, guidelines, chat prompt and judge prompt
of each profile, from a case's parts (no Django; reading and writing the files is
`eval_files/`). The contract is docs/formatting.md.
"""
