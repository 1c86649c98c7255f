"""Import tests from another tool (docs/imports.md, "In the browser"): upload files or a .zip,
see the detected format and what each row becomes, choose a session's turn, then import as a
job. Previewing writes nothing."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from ..forms import TestsImportForm
from ..other_tools.preview import preview_rows, session_turns
from ..other_tools.registry import BY_NAME, FORMAT_NAMES
from ..permissions import Capability, WorkspaceAccess, signed_in_user, workspace_access
from ..services.imports.tests_from_tools import (
    DEFAULT_SUITE,
    TestsImportRefused,
    files_from_uploads,
    preview_tests,
)
from ..services.imports.zip_import import zip_limits
from ..services.jobs.requests import JobRefused, ask_import_tests
from .htmx_request import HtmxHttpRequest

PAGE = "evals/tests_import.html"
TURN_FIELD = "turn:"  # a session's chosen turn is posted as `turn:<file>`


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def tests_import(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The import page (GET); its preview (POST `action=preview`, the preview alone for htmx);
    queueing the import (POST `action=import`), answered with the job's page."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    formats = [(name, BY_NAME[name].label) for name in FORMAT_NAMES]
    if request.method == "GET":
        form = TestsImportForm(formats=formats, initial={"suite": DEFAULT_SUITE})
        return render(request, PAGE, _context(access, form))
    form = TestsImportForm(request.POST, request.FILES, formats=formats)
    context = _context(access, form)
    if not form.is_valid():
        return _answer(request, context, status=422)
    uploads = form.cleaned_data["uploads"]
    turns = _turns(request)
    if request.POST.get("action") == "import":
        try:
            job = ask_import_tests(
                signed_in_user(request),
                access.workspace,
                [(upload.name or "upload", upload, upload.size or 0) for upload in uploads],
                form.cleaned_data["suite"],
                source=form.cleaned_data["source"],
                turns=turns,
            )
        except JobRefused as refusal:
            context["refusal"] = str(refusal)
            return _answer(request, context, status=422)
        return redirect(job)
    try:
        files = files_from_uploads(
            [(upload.name or "upload", upload) for upload in uploads], zip_limits()
        )
        conversion = preview_tests(
            access.workspace,
            files,
            form.cleaned_data["suite"],
            forced=form.cleaned_data["source"] or None,
            turns=turns,
        )
    except TestsImportRefused as refusal:
        context["refusal"] = refusal.message
        return _answer(request, context, status=422)
    context["rows"] = preview_rows(conversion)
    context["sessions"] = session_turns(conversion)
    context["formats_found"] = sorted({result.format for result in conversion.files})
    context["skipped"] = conversion.skipped
    context["file_warnings"] = [str(w) for w in conversion.warnings] + [
        str(w) for result in conversion.files for w in result.warnings
    ]
    context["previewed"] = True
    return _answer(request, context)


def _context(access: WorkspaceAccess, form: TestsImportForm) -> dict[str, Any]:
    suites = access.workspace.suites.filter(profile="agentv-2026", cases_key="tests")
    return {
        "workspace": access.workspace,
        "access": access,
        "form": form,
        "suite_paths": list(suites.values_list("path", flat=True)),
        "limits": zip_limits(),
        "turn_field": TURN_FIELD,
    }


def _turns(request: HtmxHttpRequest) -> dict[str, list[int]]:
    chosen: dict[str, list[int]] = {}
    for key in request.POST:
        value = request.POST.get(key, "")
        if key.startswith(TURN_FIELD) and value.isdigit():
            chosen[key.removeprefix(TURN_FIELD)] = [int(value)]
    return chosen


def _answer(request: HtmxHttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    template = f"{PAGE}#preview" if request.htmx else PAGE
    return render(request, template, context, status=status)
