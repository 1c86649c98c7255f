"""The API's first version: its routers, token authentication, JSON errors and URLs.

The OpenAPI schema is at /api/v1/openapi.json and its docs page at /api/v1/docs, both served
without a token (they describe the API, no data); the page (templates/ninja/swagger.html)
runs Swagger UI from our static files, with no inline code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

from csp.constants import SELF
from csp.decorators import csp_replace
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, URLResolver, include, re_path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET
from ninja import NinjaAPI, Swagger
from ninja.parser import Parser

from ..json_limits import load_json
from . import (
    assignments,
    cases,
    formatted,
    history,
    jobs,
    reviews,
    runs,
    suggestions,
    workspaces,
)
from .auth import BearerToken
from .errors import NotJsonBody, install_error_handlers

DESCRIPTION = """\
Read and edit the cases of your workspaces, take review steps, get the formatted cases, and
queue long work (imports, exports, syncs, publishes, upgrades) for the worker.
Every request needs an API token (create one on the **API tokens** page, linked under your
name): `Authorization: Bearer TOKEN`. You see only your workspaces, with the rights of your
role in each. Every error is JSON with a `message`.
"""


class BoundedJSONParser(Parser):
    """Request bodies: a JSON object, nested no deeper than a case may be (json_limits); a form
    upload sent to an endpoint that takes JSON is refused (415), whatever it holds."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        content_type = request.content_type or ""
        if content_type.startswith("multipart/"):
            raise NotJsonBody(content_type)
        data = load_json(request.body)
        if not isinstance(data, dict):
            raise ValueError("the request body must be a JSON object")
        return data


api = NinjaAPI(
    title="agentv-web API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api-v1",
    auth=BearerToken(),
    parser=BoundedJSONParser(),
    # No call to an outside validator (its badge would be an image from another site).
    docs=Swagger(settings={"validatorUrl": None, "tryItOutEnabled": False}),
    # Swagger UI's stylesheet draws its icons as `data:` SVG images; on this page only.
    docs_decorator=csp_replace({"img-src": [SELF, "data:"]}),
)
install_error_handlers(api)
for module in (
    workspaces,
    cases,
    reviews,
    assignments,
    suggestions,
    history,
    formatted,
    jobs,
    runs,
):
    api.add_router("", module.router)


def api_urls() -> tuple[Sequence[URLPattern | URLResolver], str | None, str | None]:
    """The API's URL patterns, included, for `path("api/v1/", api_urls())`.

    A token, not a session, says who calls, so the pages' login redirect does not apply;
    ninja's plain-text answer to a method the URL does not take becomes JSON,
    and so does a URL that is no endpoint.
    """
    patterns, app_name, namespace = api.urls
    for pattern in patterns:
        if not isinstance(pattern, URLPattern):
            continue
        if pattern.name == "api-root":
            # ninja needs the root's name to place the paths in the schema; the page itself
            # is nothing but a 404.
            pattern.callback = login_not_required(_no_such_endpoint)
        else:
            view = pattern.callback
            if pattern.name in ("openapi-json", "openapi-view"):
                view = require_GET(view)  # ninja's own views answer any method
            pattern.callback = login_not_required(_json_refusals(view))
    patterns.append(re_path(r"", login_not_required(_no_such_endpoint)))
    return include((patterns, app_name), namespace=namespace)


def _json_refusals(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def answering_json(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if response.status_code == 405 and not isinstance(response, JsonResponse):
            refusal = JsonResponse(
                {"message": f"This URL does not take {request.method}."}, status=405
            )
            refusal["Allow"] = response["Allow"]
            return refusal
        return response

    return answering_json


@csrf_exempt  # changes nothing; answers like the rest of the API, which takes no session
def _no_such_endpoint(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"message": "No such API endpoint (see /api/v1/docs)."}, status=404)
