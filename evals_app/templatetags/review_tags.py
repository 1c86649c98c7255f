"""Template filters of review data."""

from __future__ import annotations

from django import template

from ..models import ReviewStatus

register = template.Library()


@register.filter
def status_label(status: str) -> str:
    """A review status in words (`in_review` → "In review"), for a status a page computed
    rather than read from a case's field (blind review: permissions.shown_status)."""
    return ReviewStatus(status).label if status in ReviewStatus.values else status
