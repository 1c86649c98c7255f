"""`python -m bench.profile WHAT`: where the time of one of the benchmark's figures goes.

WHAT is `import` or `export` of a generated workspace (`--profile text-heavy`: the workspace
of many eval files of every period), or `suite`, `editor` or `preview`: the
suite page, the editor of the 50-turn case, or its preview, requested repeatedly through
Django's whole stack. pyinstrument's tree of the run is printed on standard output. Like the
benchmark, it works in a scratch folder with production settings, removed at the end.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.html_forms import form_fields
from tests.workload.generate import (
    PROFILES,
    SHORT_VALUES,
    GeneratedWorkspace,
    generate_workspace,
)

from .environment import USERNAME, join, prepare
from .figures import progress
from .measure_files import export_workspace, import_workspace

TARGETS = ("import", "export", "suite", "editor", "preview")
WORKSPACE = "profiled"


def main(argv: list[str] | None = None) -> None:
    """Profile what the command line names."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=TARGETS)
    parser.add_argument("--cases", type=int, default=1_000, help="cases in the workspace")
    parser.add_argument("--requests", type=int, default=200, help="requests of a page profiled")
    parser.add_argument(
        "--profile", choices=PROFILES, default=SHORT_VALUES, help="the workspace's profile"
    )
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="agentv-profile-"))
    try:
        prepare(folder)
        progress(f"generating {args.cases} cases")
        workspace = generate_workspace(
            folder / "workspace", cases=args.cases, seed=1, profile=args.profile
        )
        if args.what == "import":
            _profile(lambda: import_workspace(workspace, WORKSPACE))
            return
        import_workspace(workspace, WORKSPACE)
        join(WORKSPACE)
        if args.what == "export":
            # In this one process, where the profiler sees the work (not in worker processes).
            _profile(lambda: export_workspace(WORKSPACE, folder / "out", jobs=1))
            return
        request = _page_request(workspace, args.what)
        for _ in range(10):  # templates compiled, caches filled: not what is profiled
            request()
        _profile(lambda: [request() for _ in range(args.requests)])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _page_request(workspace: GeneratedWorkspace, what: str) -> Callable[[], None]:
    """One request of the page `what` as the benchmark's user, checked to succeed."""
    from django.contrib.auth.models import User
    from django.http import HttpResponseBase
    from django.test import Client
    from django.urls import reverse

    from evals_app.models import Case

    case = Case.objects.select_related("suite__workspace").get(
        suite__workspace__name=WORKSPACE,
        suite__path=workspace.first_suite,
        case_id=workspace.long_case_id,
    )
    slug, suite_pk = case.suite.workspace.slug, case.suite.pk
    client = Client()
    client.force_login(User.objects.get(username=USERNAME))
    editor = reverse("case_editor", args=[slug, suite_pk, case.pk])

    def checked(response: HttpResponseBase) -> None:
        if response.status_code != 200:
            raise RuntimeError(f"{what} answered {response.status_code}")

    if what == "suite":
        suite = reverse("suite_detail", args=[slug, suite_pk])
        return lambda: checked(client.get(suite))
    if what == "editor":
        return lambda: checked(client.get(editor))
    fields = form_fields(client.get(editor).content.decode(), "case-form")
    fields.update({"preview_mode": "lm", "candidate_answer": ""})
    body, preview = json.dumps(fields), f"{editor}preview/"
    htmx = {"HX-Request": "true"}
    return lambda: checked(
        client.post(preview, body, content_type="application/json", headers=htmx)
    )


def _profile(work: Callable[[], object]) -> None:
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0005)
    with profiler:
        work()
    print(profiler.output_text(unicode=True, color=False))


if __name__ == "__main__":
    main()
