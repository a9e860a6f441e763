"""The app's own rules, pure: no ORM query, no request, no django.db/django.http/DRF import."""
