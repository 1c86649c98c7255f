"""Every error of the API is JSON with a `message` (docs/api.md): the same refusals as the
pages (404 outside the caller's workspaces, 403 when the role does not allow), in words."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError

from ..eval_files.errors import EvalFileError
from ..json_limits import UnstorableText

TOKEN_REQUIRED = "A valid API token is required: send the header 'Authorization: Bearer TOKEN'."


class NotJsonBody(ValueError):
    """A body of another type (a form upload) sent to an endpoint that takes JSON."""

    def __init__(self, content_type: str) -> None:
        super().__init__(
            f"This endpoint takes a JSON body (Content-Type: application/json), not {content_type}."
        )


class Message(Schema):
    """An error: what went wrong, in words."""

    message: str


class InvalidDocument(Schema):
    """A case document that is not a valid AgentV case: the message and where the problem
    is (the suite's file, the case id, the field such as `input_messages[0].role`)."""

    message: str
    file: str | None
    case: str | None
    field: str | None


# The errors every endpoint that names a workspace may answer, for the OpenAPI schema.
WORKSPACE_ERRORS: dict[int, type[Schema]] = {
    400: Message,
    401: Message,
    403: Message,
    404: Message,
}


def invalid_document(error: EvalFileError) -> dict[str, Any]:
    """The body of a 422 answer to an invalid case document."""
    return {
        "message": str(error),
        "file": error.file,
        "case": error.case_id,
        "field": error.field,
    }


def install_error_handlers(api: NinjaAPI) -> None:
    """Answer every refusal of `api` as JSON with a `message`."""

    def answer(request: HttpRequest, message: str, status: int) -> HttpResponse:
        return api.create_response(request, {"message": message}, status=status)

    @api.exception_handler(AuthenticationError)
    def unauthenticated(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
        response = answer(request, TOKEN_REQUIRED, 401)
        response["WWW-Authenticate"] = "Bearer"
        return response

    @api.exception_handler(HttpError)
    def http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
        message = str(error)
        if isinstance(error.__cause__, NotJsonBody):
            return answer(request, str(error.__cause__), 415)
        if isinstance(error.__cause__, UnstorableText):
            # A field of a usable body: named as the page's refusals name a form field.
            message = str(error.__cause__)
        elif error.status_code == 400 and error.__cause__ is not None:
            # ninja hides why a body could not be parsed unless DEBUG is on; the reason
            # (not JSON, nested too deep, not UTF-8) says nothing about the server.
            message = f"The request body is not usable JSON: {error.__cause__}"
        return answer(request, message, error.status_code)

    @api.exception_handler(ValidationError)
    def invalid_request(request: HttpRequest, error: ValidationError) -> HttpResponse:
        problems = [_problem(item) for item in error.errors]
        message = "The request is not valid: " + "; ".join(problems)
        return answer(request, message, 400)

    @api.exception_handler(Http404)
    def not_found(request: HttpRequest, error: Http404) -> HttpResponse:
        return answer(request, str(error) or "Not found.", 404)

    @api.exception_handler(PermissionDenied)
    def forbidden(request: HttpRequest, error: PermissionDenied) -> HttpResponse:
        return answer(request, str(error) or "Your role does not allow this.", 403)

    @api.exception_handler(MultiPartParserError)
    def unreadable_form(request: HttpRequest, error: MultiPartParserError) -> HttpResponse:
        # A form upload without its boundary or with a broken one: the endpoints that take
        # files read them through ninja, which would let the parser's error through as a 500.
        return answer(request, f"The request body is not a usable multipart form: {error}", 400)

    @api.exception_handler(RequestDataTooBig)
    def too_big(request: HttpRequest, error: RequestDataTooBig) -> HttpResponse:
        return answer(request, "The request body is larger than the server accepts.", 413)


def _problem(item: dict[str, Any]) -> str:
    """One pydantic error as `where: what`, e.g. `body.action: Input should be 'submit'`."""
    where = ".".join(str(part) for part in item.get("loc", ()))
    return f"{where}: {item.get('msg', 'invalid')}" if where else str(item.get("msg", "invalid"))
