"""Refusing request parameters that hold NUL characters, before any view reads them.

PostgreSQL text cannot hold NUL (U+0000): a query or a write with one fails inside the database
driver, which would be a 500. No path, id, search or text typed in a form has a reason to hold
one, so a request whose query string or form fields do is answered 400, saying which field.
JSON bodies are not concerned: a NUL there stays escaped (`\\u0000`) in the JSON text stored;
the API takes only JSON bodies (and reads them itself, which a form parse here would prevent).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class RefuseNulCharactersMiddleware:
    """Answer 400 to a query string or form field (name or value) holding a NUL character."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        field = _field_with_nul(request)
        if field is None:
            return self.get_response(request)
        message = f"{field}: text cannot hold NUL characters."
        if request.path.startswith("/api/"):
            return JsonResponse({"message": message}, status=400)
        return HttpResponseBadRequest(message)


def _field_with_nul(request: HttpRequest) -> str | None:
    """The name of the first parameter whose name or value holds a NUL, or None."""
    sources = [request.GET]
    api = request.path.startswith("/api/")
    if request.method == "POST" and request.content_type in FORM_TYPES and not api:
        sources.append(request.POST)
    for source in sources:
        for name, values in source.lists():
            if "\x00" in name or any("\x00" in value for value in values):
                return name.replace("\x00", "\\0")
    return None
