"""The case editor: edit a case turn by turn and see what the model and the judge will receive.

One URL serves the page and, for htmx, its parts: structural edits (add, move, delete a turn)
re-render the turns from the posted, unsaved state; the preview is a separate side-effect-free
POST; saving checks the version the editor loaded so that nobody's work is overwritten.
Anyone who may see the workspace may open the editor; reviewers and viewers get it read-only
(the preview, comments and review steps, no edit controls), and every edit needs the editor role.
In suggest mode (`?suggest=1`, for whoever may comment) the same form edits a draft that is saved
as a suggestion instead of a revision (docs/user-guide.md, "Suggested edits").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from ..editor.case_drafts import CaseDraft, DraftFormError, DraftValueError
from ..editor.page_context import editor_context, preview_context
from ..editor.review_panel import review_context
from ..eval_files.errors import EvalFileError
from ..eval_files.yaml_dumper import dump_yaml
from ..formatting.profile_2025.formatter import MODES
from ..json_limits import JSONTooDeep, UnstorableText, load_json
from ..models import Case, Comment, CommentThread, Suite
from ..permissions import (
    Capability,
    WorkspaceAccess,
    signed_in_user,
    status_of,
    workspace_access,
)
from ..request_numbers import parse_number
from ..services.cases.editing import CaseConflict, differences, paste_case, save_case
from ..services.cases.pasting import paste_example, pasted_replacement
from ..services.profiles import profile_of
from ..services.profiles.workspace_formatter import WorkspaceFormatter
from ..services.review.suggestions import SuggestionError, suggest
from .htmx_request import HtmxHttpRequest
from .lookups import case_or_404
from .runs import run_panel_context

TEMPLATE = "evals/case_editor.html"


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def case_editor(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """The editor page; POST applies an edit (`action`) to the unsaved state or saves it."""
    access, case = case_or_404(request, slug, suite_pk, case_pk)
    if request.method == "GET":
        draft = CaseDraft.from_document(case.document, case.version)
        suite = case.suite
        draft.fit_suite(
            suite.cases_key or None,
            today=profile_of(suite).expands_tests,
            prompts="prompts" in suite.document,
        )
        suggesting = request.GET.get("suggest") == "1" and access.can_comment
        if suggesting and "comment" in request.GET:
            # "Suggest a change" on a comment: at the comment's turn, answering it.
            answering = _comment_or_404(case, request.GET["comment"])
            start = _field_of(answering.thread)
            return _render_editor(
                request, access, case, draft, start, suggesting=True, answering=answering
            )
        return _render_editor(request, access, case, draft, suggesting=suggesting)
    suggesting = request.POST.get("mode") == "suggest"
    access.require(Capability.COMMENT if suggesting else Capability.EDIT)
    try:
        _check_hidden_json(request.POST)
        draft = CaseDraft.from_form(request.POST)
    except (DraftFormError, JSONTooDeep) as error:
        return HttpResponseBadRequest(f"The editor form was not understood: {error}")
    action = request.POST.get("action", "save")
    if action == "suggest":
        return _suggest(request, access, case, draft)
    if action == "save" or action.startswith("overwrite:"):
        access.require(Capability.EDIT)
        return _save(request, access, case, draft, action)
    try:
        focus = draft.apply(action)
    except DraftFormError as error:
        return HttpResponseBadRequest(str(error))
    if request.htmx:
        context = _context(request, access, case, draft, focus=focus, suggesting=suggesting)
        response = render(request, f"{TEMPLATE}#conversation", context)
        return trigger_client_event(response, "turns-changed", after="settle")
    return _render_editor(request, access, case, draft, focus=focus, suggesting=suggesting)


def _save(
    request: HtmxHttpRequest, access: WorkspaceAccess, case: Case, draft: CaseDraft, action: str
) -> HttpResponse:
    base_version: int | None = draft.version
    if action.startswith("overwrite:"):
        # The user saw the conflict and chose to replace that version (and only that one).
        base_version = parse_number(action.removeprefix("overwrite:"))
    if base_version is None:
        return HttpResponseBadRequest(f"The editor form was not understood: bad action {action!r}")
    try:
        document = draft.saved_document()
        saved = save_case(case, document, base_version, signed_in_user(request))
    except DraftValueError as error:
        invalid = EvalFileError(str(error))
        return _render_status(request, access, case, draft, status=422, error=invalid)
    except EvalFileError as error:
        return _render_status(request, access, case, draft, status=422, error=error)
    except CaseConflict as conflict:
        theirs = Case.objects.get(pk=case.pk).document
        return _render_status(
            request,
            access,
            case,
            draft,
            status=409,
            conflict=conflict.current,
            changes=differences(theirs, document),
        )
    if not request.htmx:
        messages.success(request, f"Saved {saved.case_id}.")
        return redirect("case_editor", access.workspace.slug, case.suite.pk, saved.pk)
    draft.version = saved.version
    context = _context(request, access, saved, draft)
    response = render(request, f"{TEMPLATE}#save-status", {**context, "saved": True})
    return trigger_client_event(response, "case-saved")


def _suggest(
    request: HtmxHttpRequest, access: WorkspaceAccess, case: Case, draft: CaseDraft
) -> HttpResponse:
    """Save the draft as a suggestion, then show it; a refusal keeps the draft on the page."""
    if draft.version is None:
        return HttpResponseBadRequest("The editor form was not understood: no version")
    note = request.POST.get("suggestion_note", "")
    answers = parse_number(request.POST.get("answers"))
    user = signed_in_user(request)
    try:
        made = suggest(case, user, draft.saved_document(), draft.version, note, answers)
    except (DraftValueError, SuggestionError) as error:
        invalid = EvalFileError(str(error))
        return _render_status(
            request, access, case, draft, status=422, error=invalid, suggesting=True
        )
    except EvalFileError as error:
        return _render_status(
            request, access, case, draft, status=422, error=error, suggesting=True
        )
    messages.success(request, f"Suggested a change to {case.case_id}.")
    url = reverse("case_suggestion", args=[access.workspace.slug, case.suite.pk, case.pk, made.pk])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _render_status(
    request: HtmxHttpRequest,
    access: WorkspaceAccess,
    case: Case,
    draft: CaseDraft,
    *,
    status: int,
    suggesting: bool = False,
    **extra: Any,
) -> HttpResponse:
    preview = not request.htmx
    context = {
        **_context(request, access, case, draft, preview=preview, suggesting=suggesting),
        **extra,
    }
    template = f"{TEMPLATE}#save-status" if request.htmx else TEMPLATE
    return render(request, template, context, status=status)


def _render_editor(
    request: HtmxHttpRequest,
    access: WorkspaceAccess,
    case: Case,
    draft: CaseDraft,
    focus: str | None = None,
    *,
    suggesting: bool = False,
    answering: Comment | None = None,
) -> HttpResponse:
    context = _context(
        request, access, case, draft, focus=focus, preview=True, suggesting=suggesting
    )
    if answering is not None:
        context.update(answering=answering, answers=answering.pk)
    return render(request, TEMPLATE, context)


def _comment_or_404(case: Case, number: str) -> Comment:
    """The comment `number` of a thread on `case`, which a suggestion will answer."""
    comments = Comment.objects.select_related("author", "thread")
    return get_object_or_404(comments, pk=parse_number(number), thread__case=case)


def _field_of(thread: CommentThread) -> str:
    """The editor field a suggestion answering a comment of `thread` starts in: its turn's
    first block, or the outcome for a thread on the whole case."""
    return f"{thread.anchor}-block-0-value" if thread.anchor else "outcome"


def _context(
    request: HtmxHttpRequest,
    access: WorkspaceAccess,
    case: Case,
    draft: CaseDraft,
    *,
    focus: str | None = None,
    preview: bool = False,
    suggesting: bool = False,
) -> dict[str, Any]:
    """The editor's context: the form, the review panel and, for whole pages, the preview;
    `suggesting`: the form is open to whoever may comment, and saves a suggestion."""
    formatter = WorkspaceFormatter(access.workspace)
    context = editor_context(formatter, case.suite, case, draft, focus=focus)
    context.update(review_context(access, case, signed_in_user(request)))
    # A CSV file's cases are formatted and previewed, never edited (docs/formats.md).
    context["read_only"] = not (access.can_edit or suggesting) or case.suite.read_only
    context["suggesting"] = suggesting and not case.suite.read_only
    # The comment a suggestion answers, kept through a refusal (see _render_editor).
    context["answers"] = parse_number(request.POST.get("answers")) if suggesting else None
    if preview:
        context.update(preview_context(formatter, case.suite, draft))
        context.update(run_panel_context(access, case))
    return context


@require_POST
def case_preview(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """The preview of the posted, unsaved case. Changes nothing; always 200, errors inline."""
    access, case = case_or_404(request, slug, suite_pk, case_pk)
    suite = case.suite
    context: dict[str, Any] = {"workspace": access.workspace, "suite": suite, "case": case}
    try:
        form = _preview_form(request)
        _check_hidden_json(form)
        draft = CaseDraft.from_form(form)
    except (JSONTooDeep, UnstorableText) as error:
        # Not a form any page sends: refused outright rather than previewed with an error
        # (a page could not even show a lone surrogate).
        return HttpResponseBadRequest(f"The editor form was not understood: {error}")
    except DraftFormError as error:
        context["preview_error"] = f"the editor form was not understood ({error})"
        return render(request, f"{TEMPLATE}#preview", context)
    mode = form.get("preview_mode", "lm")
    if mode not in MODES:
        mode = "lm"
    candidate = form.get("candidate_answer", "")
    formatter = WorkspaceFormatter(access.workspace)
    context.update(preview_context(formatter, suite, draft, mode=mode, candidate_answer=candidate))
    return render(request, f"{TEMPLATE}#preview", context)


def _preview_form(request: HtmxHttpRequest) -> Mapping[str, str]:
    """The editor form the preview was sent: one JSON object of strings, as htmx sends it
    (static/js/form-json.js: far cheaper to decode than a form body of hundreds of fields),
    or form-encoded."""
    if request.content_type != "application/json":
        return request.POST
    try:
        fields = load_json(request.body)
    except (JSONTooDeep, UnstorableText):
        raise
    except ValueError:
        raise DraftFormError("the request body is not JSON") from None
    if not isinstance(fields, dict) or not all(isinstance(v, str) for v in fields.values()):
        raise DraftFormError("the request body is not an object of strings")
    return fields


def _check_hidden_json(form: Mapping[str, str]) -> None:
    """Refuse hidden `-meta` fields that are JSON nested too deep (JSONTooDeep) or that Python's
    parser rejects with an error of its own (DraftFormError), e.g. a number of 5,000 digits;
    CaseDraft reads them afterwards, knowing they parse."""
    for name, value in form.items():
        if not (name.endswith("-meta") and value):
            continue
        try:
            load_json(value, where=name)
        except UnstorableText:
            raise
        except JSONTooDeep as error:
            raise JSONTooDeep(error.limit, name) from None
        except ValueError as error:
            raise DraftFormError(f"{name}: not JSON ({error})") from None


@require_GET
def case_yaml(request: HtmxHttpRequest, slug: str, suite_pk: int, case_pk: int) -> HttpResponse:
    """The case as export writes it, read-only, with a copy button."""
    access, case = case_or_404(request, slug, suite_pk, case_pk)
    suite = case.suite
    text = dump_yaml([case.document])
    return render(
        request,
        "evals/case_yaml.html",
        {
            "workspace": access.workspace,
            "access": access,
            "suite": suite,
            "case": case,
            "yaml_text": text,
        },
    )


@require_http_methods(["GET", "POST"])
def case_paste(request: HtmxHttpRequest, slug: str, suite_pk: int) -> HttpResponse:
    """Create a case from pasted YAML, or replace the case with the same id once the user has
    seen what would change and confirmed (`replace`: the version of the case they saw)."""
    access = workspace_access(request.user, slug, Capability.EDIT)
    suite = get_object_or_404(Suite, workspace=access.workspace, pk=suite_pk)
    context: dict[str, Any] = {
        "workspace": access.workspace,
        "suite": suite,
        "source": "",
        "example": paste_example(suite),
    }
    if request.method == "POST":
        source = request.POST.get("yaml", "")
        context["source"] = source
        try:
            replacement = pasted_replacement(suite, source)
            confirmed = request.POST.get("replace", "")
            if replacement and replacement.changes and confirmed != str(replacement.case.version):
                # Shown again if the case changed after the user saw the differences.
                context.update(replacement=replacement, changed_since=bool(confirmed))
                context["replaced_status"] = status_of(access, replacement.case)
                return render(request, "evals/case_paste.html", context)
            case, created = paste_case(suite, source, signed_in_user(request))
        except EvalFileError as error:
            context["error"] = error
            return render(request, "evals/case_paste.html", context, status=422)
        verb = "Created" if created else "Replaced"
        messages.success(request, f"{verb} {case.case_id} from the pasted YAML.")
        return redirect("case_editor", access.workspace.slug, suite.pk, case.pk)
    return render(request, "evals/case_paste.html", context)
