"""Pages for everyone: home, the rules calculator, and public tournaments (``/t/<slug>/``)."""

from django.urls import path

from scoring.views import (
    public,
    public_checkin,
    public_players,
    public_ratings,
    public_room,
    public_seasons,
    public_table,
)

urlpatterns = [
    path("", public.home, name="home"),
    path("calculator/", public.calculator, name="calculator"),
    path("time/", public.server_time, name="server-time"),
    path("clubs/<int:club_id>/ratings/", public_ratings.club_ratings_page, name="public-club-ratings"),
    path("players/<int:player_id>/", public_players.club_player_page, name="public-club-player"),
    path("players/<int:player_id>/prove/", public_players.prove_player, name="public-club-player-prove"),
    path("players/<int:player_id>/forget/", public_players.forget_player, name="public-club-player-forget"),
    path("seasons/<int:pk>/", public_seasons.season_page, name="public-season"),
    path("t/<slug:slug>/", public.tournament_page, name="public-tournament"),
    path("t/<slug:slug>/live/", public.tournament_live, name="public-tournament-live"),
    path("t/<slug:slug>/room/", public_room.room_page, name="public-room"),
    path("t/<slug:slug>/room/live/", public_room.room_live, name="public-room-live"),
    path("t/<slug:slug>/check-in/", public_checkin.check_in_page, name="public-check-in"),
    path("t/<slug:slug>/payouts/", public.payouts_page, name="public-payouts"),
    path("t/<slug:slug>/players/<int:player_id>/", public.player_page, name="public-player"),
    path("t/<slug:slug>/tables/<int:table_id>/", public_table.table_page, name="public-table"),
    path("t/<slug:slug>/tables/<int:table_id>/live/", public_table.table_live, name="public-table-live"),
]
