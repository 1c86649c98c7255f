"""Views: parse the request, call a service, render."""
