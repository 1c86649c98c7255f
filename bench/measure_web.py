"""The measurements against a running server: preview load, throughput, and the browser."""

from __future__ import annotations

from tests.workload.generate import GeneratedWorkspace

from .environment import Environment
from .figures import Figure
from .measure_browser import measure_browser
from .measure_preview import PreviewRequest, measure_throughput, measure_typists
from .server import access_log, gunicorn, log_in


def measure_web(
    environment: Environment,
    workspace: GeneratedWorkspace,
    name: str,
    *,
    seconds: float,
    keystrokes: int,
) -> list[Figure]:
    """gunicorn with 2 workers for the typists and the browser, then with 1 for throughput.

    `keystrokes=0` leaves the browser out.
    """
    editor_path = _editor_path(workspace, name)
    figures: list[Figure] = []
    with gunicorn(environment, workers=2) as port:
        session = log_in(port, environment.password)
        preview = PreviewRequest.of_editor(session, editor_path)
        figures += measure_typists(session, preview, seconds, access_log(environment, port))
        if keystrokes:
            figures.append(measure_browser(port, environment.password, editor_path, keystrokes))
    with gunicorn(environment, workers=1) as port:
        figures.append(measure_throughput(session.copy(port), preview, seconds))
    return figures


def _editor_path(workspace: GeneratedWorkspace, name: str) -> str:
    from django.urls import reverse

    from evals_app.models import Case

    case = Case.objects.select_related("suite__workspace").get(
        suite__workspace__name=name,
        suite__path=workspace.first_suite,
        case_id=workspace.long_case_id,
    )
    return reverse("case_editor", args=[case.suite.workspace.slug, case.suite.pk, case.pk])
