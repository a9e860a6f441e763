"""Clubs and their players."""

from __future__ import annotations

from django.db.models import QuerySet

from scoring.models import Club, Player


def club_list_for_user(user) -> QuerySet[Club]:
    if user is None or not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(directors=user)


def player_list(club: Club) -> QuerySet[Player]:
    return Player.objects.filter(club=club).order_by("name")
