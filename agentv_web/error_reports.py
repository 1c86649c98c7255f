"""Error reports that hide secrets with debug on too (docs/security.md, "Credentials").

Django's SafeExceptionReporterFilter hides the variables marked `sensitive_variables` and the
POST fields marked `sensitive_post_parameters` only when DEBUG is off; `make run` has it on,
and its technical 500 page listed a link form's token among a frame's variables. This filter
hides them always.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.views.debug import SafeExceptionReporterFilter


class AlwaysSafeExceptionReporterFilter(SafeExceptionReporterFilter):
    """SafeExceptionReporterFilter, active whatever DEBUG says."""

    def is_active(self, request: HttpRequest | None) -> bool:
        return True
