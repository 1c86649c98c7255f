"""AgentV's eval file formats: reading every period, the case ↔ document mapping, writing back.

Plain Python, no Django (docs/formats.md).
"""
