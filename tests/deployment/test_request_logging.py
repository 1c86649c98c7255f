"""What the log says about refused requests: one line each, no traceback (a 403 is an answer,
not a fault); server errors keep their traceback."""

from __future__ import annotations

import logging
import sys

import pytest
from django.test import Client
from django.urls import reverse

from agentv_web.log_filters import ClientErrorsInOneLine
from tests import factories

pytestmark = pytest.mark.django_db


def test_a_forbidden_request_is_logged_as_one_line_without_a_traceback(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    space = factories.workspace("Team")
    client.force_login(factories.member(space, "viewer"))

    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.post(reverse("workspace_patterns", args=[space.slug]), {"patterns": "x"})

    assert response.status_code == 403
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.WARNING
    assert record.exc_info is None
    assert logging.Formatter().format(record) == "Forbidden (Permission denied): /w/team/patterns/"


def record_with_exception(status_code: int) -> logging.LogRecord:
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        exc_info = sys.exc_info()
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "x", (), exc_info)
    record.status_code = status_code
    return record


@pytest.mark.parametrize(("status_code", "traceback"), [(400, False), (403, False), (500, True)])
def test_only_server_errors_keep_their_traceback(status_code: int, traceback: bool) -> None:
    record = record_with_exception(status_code)

    assert ClientErrorsInOneLine().filter(record)
    assert ("Traceback" in logging.Formatter().format(record)) is traceback
