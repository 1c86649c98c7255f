"""Filters of the `LOGGING` configuration (settings.py)."""

from __future__ import annotations

import logging


class ClientErrorsInOneLine(logging.Filter):
    """Log a refused request (4xx: permission denied, bad request) as its one-line message.

    Django attaches the exception to these records, so each 403 came with a full traceback,
    although it is an expected answer rather than a fault. Server errors keep theirs.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
