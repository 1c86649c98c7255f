"""The request type of views that answer htmx requests (django-htmx's middleware adds `htmx`)."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """An HttpRequest with the `htmx` details set by HtmxMiddleware."""

    htmx: HtmxDetails
