"""Date helpers for the support dashboard (SLA timers, ticket ages)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

TICKET_TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%S"


def parse_ticket_timestamp(value: str) -> datetime:
    """Parse a timestamp from the ticketing API and return it in UTC."""
    parsed = datetime.strptime(value, TICKET_TIMESTAMP_FORMAT)
    return parsed.replace(tzinfo=UTC)


def business_days_between(start: date, end: date) -> int:
    """Count Monday-to-Friday days in [start, end)."""
    days = 0
    current = start
    while current < end:
        if current.weekday() < 5:
            days += 1
        current += timedelta(days=1)
    return days


def sla_deadline(opened_at: datetime, hours: int = 24) -> datetime:
    """When the first response is due for a ticket opened at `opened_at`."""
    return opened_at + timedelta(hours=hours)
