from django.urls import path, re_path

from scoring.api import (
                         audits,
                         base,
                         clubs,
                         events,
                         exports,
                         players,
                         ratings,
                         rounds,
                         seating,
                         sessions,
                         standings,
                         tables,
                         tokens,
                         tournaments,
)
from scoring.api.evaluate import EvaluateView

urlpatterns = [
    path("evaluate/", EvaluateView.as_view(), name="api-evaluate"),
    path("auth/token/", tokens.AuthTokenView.as_view(), name="api-auth-token"),
    path("auth/token/revoke/", tokens.AuthTokenRevokeView.as_view(), name="api-auth-token-revoke"),
    path("clubs/", clubs.ClubListView.as_view(), name="api-clubs"),
    path("clubs/<int:pk>/", clubs.ClubDetailView.as_view(), name="api-club"),
    path("clubs/<int:pk>/players/", clubs.ClubPlayersView.as_view(), name="api-club-players"),
    path("players/<int:pk>/", clubs.PlayerDetailView.as_view(), name="api-player"),
    path("clubs/<int:pk>/ratings/", ratings.ClubRatingsView.as_view(), name="api-club-ratings"),
    path("clubs/<int:pk>/ratings/rebuild/", ratings.ClubRatingsRebuildView.as_view(), name="api-club-ratings-rebuild"),
    path("players/<int:pk>/ratings/", ratings.PlayerRatingsView.as_view(), name="api-player-ratings"),
    path("tournaments/", tournaments.TournamentListView.as_view(), name="api-tournaments"),
    path("tournaments/<int:pk>/", tournaments.TournamentDetailView.as_view(), name="api-tournament"),
    path("tournaments/<int:pk>/start/", tournaments.TournamentStartView.as_view(), name="api-tournament-start"),
    path("tournaments/<int:pk>/finish/", tournaments.TournamentFinishView.as_view(), name="api-tournament-finish"),
    path("tournaments/<int:pk>/entries/", tournaments.TournamentEntriesView.as_view(), name="api-tournament-entries"),
    path("tournaments/<int:pk>/entries/<int:player_id>/", players.EntryDetailView.as_view(),
         name="api-tournament-entry"),
    path("tournaments/<int:pk>/entries/<int:player_id>/code/", players.EntryCodeView.as_view(),
         name="api-tournament-entry-code"),
    path("tournaments/import/", exports.TournamentImportView.as_view(), name="api-tournament-import"),
    path("imports/<int:pk>/", exports.ImportDetailView.as_view(), name="api-import"),
    path("tournaments/<int:pk>/sessions/", seating.TournamentSessionsView.as_view(), name="api-tournament-sessions"),
    path("tournaments/<int:pk>/export/", exports.TournamentExportView.as_view(), name="api-tournament-export"),
    path("tournaments/<int:pk>/tables/", tournaments.TournamentTablesView.as_view(), name="api-tournament-tables"),
    path("tournaments/<int:pk>/standings/", standings.TournamentStandingsView.as_view(), name="api-tournament-standings"),
    path("tournaments/<int:pk>/standings.csv", standings.TournamentStandingsCSVView.as_view(),
         name="api-tournament-standings-csv"),
    # The live events stream: gupai_site.asgi serves it before Django; this view answers it
    # where Django serves everything (runserver, the tests' live server).
    path("tournaments/<int:pk>/events/", events.tournament_events, name="api-tournament-events"),
    path("tournaments/<int:pk>/payouts/", standings.TournamentPayoutsView.as_view(), name="api-tournament-payouts"),
    path("sessions/<int:pk>/close/", sessions.SessionCloseView.as_view(), name="api-session-close"),
    path("sessions/<int:pk>/reopen/", sessions.SessionReopenView.as_view(), name="api-session-reopen"),
    path("sessions/<int:pk>/clock/", sessions.SessionClockView.as_view(), name="api-session-clock"),
    path("tables/<int:pk>/", tables.TableDetailView.as_view(), name="api-table"),
    path("tables/<int:pk>/scorer-token/", tables.TableScorerTokenView.as_view(), name="api-table-scorer-token"),
    path("tables/<int:pk>/rounds/", tables.TableRoundsView.as_view(), name="api-table-rounds"),
    path("tables/<int:pk>/rounds/preview/", tables.TableRoundPreviewView.as_view(), name="api-table-rounds-preview"),
    path("rounds/<int:pk>/", rounds.RoundDetailView.as_view(), name="api-round"),
    path("rounds/<int:pk>/confirm/", rounds.RoundConfirmView.as_view(), name="api-round-confirm"),
    path("rounds/<int:pk>/void/", rounds.RoundVoidView.as_view(), name="api-round-void"),
    path("rounds/<int:pk>/dispute/", rounds.RoundDisputeView.as_view(), name="api-round-dispute"),
    path("rounds/<int:pk>/resolve/", rounds.RoundResolveView.as_view(), name="api-round-resolve"),
    path("rounds/<int:pk>/revisions/", rounds.RoundRevisionsView.as_view(), name="api-round-revisions"),
    path("tournaments/<int:pk>/audits/", audits.TournamentAuditsView.as_view(), name="api-tournament-audits"),
    path("audits/<int:pk>/", audits.AuditDetailView.as_view(), name="api-audit"),
    # Any other slashed path under /api/v1/ answers the JSON 404, also one with a line break in it
    # (which the site-wide catch-all's "." does not match: it fell through to Django's HTML 404).
    re_path(r"^(?:[\s\S]*/)?\Z", base.NotFoundView.as_view()),
    # ... and a CSV path with an id no <int:pk> matches (tournaments/abc/standings.csv): no slash
    # to append, so APPEND_SLASH would redirect it (301) to the slashed 404.
    re_path(r"^[\s\S]*\.csv\Z", base.NotFoundView.as_view()),
]
