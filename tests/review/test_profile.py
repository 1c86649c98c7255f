"""Any signed-in person sets their email address and their email choices on their profile."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from evals_app.models import Notification
from evals_app.services.review.notifications import email_kinds_of
from tests import factories

pytestmark = pytest.mark.django_db


def test_an_administrator_without_an_email_sets_one_on_their_profile() -> None:
    admin = factories.admin()
    client = Client(enforce_csrf_checks=False)
    client.force_login(admin)
    page = client.get(reverse("profile")).content.decode()
    assert "your account has none yet" in page

    response = client.post(reverse("profile"), {"email": " admin@example.com "}, follow=True)

    admin.refresh_from_db()
    assert admin.email == "admin@example.com"
    assert "Notifications go to admin@example.com." in response.content.decode()


@pytest.mark.parametrize(
    ("email", "said"),
    [
        ("not an address", "&#x27;not an address&#x27; is not an email address."),
        ("Taken@Example.com", "Another account has the email Taken@Example.com."),
    ],
)
def test_an_email_that_cannot_be_stored_is_refused_and_kept_in_the_form(
    email: str, said: str
) -> None:
    other = factories.user("other", None)
    other.email = "taken@example.com"
    other.save()
    alice = factories.user("alice", None)
    client = Client()
    client.force_login(alice)

    response = client.post(reverse("profile"), {"email": email})

    assert response.status_code == 422
    assert said in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == ""


def test_the_profile_chooses_which_notifications_come_by_email() -> None:
    alice = factories.user("alice", None)
    client = Client()
    client.force_login(alice)

    client.post(reverse("profile"), {"kinds": "1", "email_kinds": ["mention", "approved"]})

    assert email_kinds_of(alice) == [Notification.Kind.MENTION, Notification.Kind.APPROVED]
