"""The director's pages (mounted at ``director/``): login, clubs, tournaments, tables, deals."""

from django.contrib.auth import views as auth_views
from django.urls import path

from scoring.views import director
from scoring.views.login import DirectorLoginView

urlpatterns = [
    path("login/", DirectorLoginView.as_view(), name="director-login"),
    path("logout/", auth_views.LogoutView.as_view(), name="director-logout"),
    path("", director.home, name="director-home"),
    path("clubs/new/", director.club_create, name="director-club-create"),
    path("clubs/<int:club_id>/", director.club_page, name="director-club"),
    path("clubs/<int:club_id>/players/", director.players_add, name="director-players-add"),
    path("clubs/<int:club_id>/tournaments/new/", director.tournament_create, name="director-tournament-create"),
    path("clubs/<int:club_id>/imports/", director.import_upload, name="director-import-upload"),
    path("imports/<int:import_id>/", director.import_page, name="director-import"),
    path("imports/<int:import_id>/box/", director.import_box, name="director-import-box"),
    path("tournaments/<int:tournament_id>/", director.tournament_page, name="director-tournament"),
    path("tournaments/<int:tournament_id>/settings/", director.tournament_settings, name="director-tournament-settings"),
    path("tournaments/<int:tournament_id>/live/", director.tournament_live, name="director-tournament-live"),
    path("tournaments/<int:tournament_id>/download/", director.tournament_download, name="director-tournament-download"),
    path("tournaments/<int:tournament_id>/entries/", director.entries_add, name="director-entries-add"),
    path("tournaments/<int:tournament_id>/player-cards/", director.player_cards, name="director-player-cards"),
    path("tournaments/<int:tournament_id>/entries/<int:entry_id>/card/", director.player_card,
         name="director-player-card"),
    path("tournaments/<int:tournament_id>/entries/<int:entry_id>/code-reset/", director.player_code_reset,
         name="director-player-code-reset"),
    path("tournaments/<int:tournament_id>/start/", director.tournament_start, name="director-tournament-start"),
    path("tournaments/<int:tournament_id>/finish/", director.tournament_finish, name="director-tournament-finish"),
    path("tournaments/<int:tournament_id>/sessions/new/", director.session_seat, name="director-session-seat"),
    path("tournaments/<int:tournament_id>/sessions/<int:number>/sheet/", director.session_sheet,
         name="director-session-sheet"),
    path("sessions/<int:session_id>/close/", director.session_close, name="director-session-close"),
    path("sessions/<int:session_id>/reopen/", director.session_reopen, name="director-session-reopen"),
    path("sessions/<int:session_id>/clock/", director.session_clock_start, name="director-session-clock"),
    path("sessions/<int:session_id>/clock/stop/", director.session_clock_stop, name="director-session-clock-stop"),
    path("tournaments/<int:tournament_id>/tables/new/", director.table_create, name="director-table-create"),
    path("tables/<int:table_id>/", director.table_page, name="director-table"),
    path("tables/<int:table_id>/link/", director.table_link, name="director-table-link"),
    path("tables/<int:table_id>/deals/new/", director.table_deal, name="director-table-deal"),
    path("tables/<int:table_id>/rotate/", director.table_rotate, name="director-table-rotate"),
    path("deals/<int:round_id>/void/", director.round_void, name="director-round-void"),
    path("deals/<int:round_id>/resolve/", director.round_resolve, name="director-round-resolve"),
    path("deals/<int:round_id>/confirm/", director.round_confirm, name="director-round-confirm"),
    path("deals/<int:round_id>/correct/", director.round_correct, name="director-round-correct"),
    path("tournaments/<int:tournament_id>/audits/", director.audit_start, name="director-audit-start"),
    path("audits/<int:audit_id>/", director.audit_box, name="director-audit"),
]
