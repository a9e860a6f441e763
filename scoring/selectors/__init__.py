"""Every read of Gupai Club beyond a plain get, one module per domain. Plain data out (dicts,
lists, model objects), no writes. Import from here or from the domain module."""

from scoring.selectors.audits import ChainReport, audit_chunk_findings, audit_detail, audit_finding_counts, audit_get, audit_latest, audit_standings_findings, round_verify_chain, standings_differences, verify_chain
from scoring.selectors.auth import user_by_api_token
from scoring.selectors.clubs import club_list_for_user, player_list
from scoring.selectors.common import get_or_404
from scoring.selectors.dashboards import action_log_for, tournament_dashboard
from scoring.selectors.exports import tournament_export
from scoring.selectors.rounds import disputed_rounds, revision_detail, round_detail, round_details, round_get, round_history, round_list, round_of_table, round_revisions, round_rows, table_history, table_round_preview
from scoring.selectors.payouts import payouts_for
from scoring.selectors.public import player_deals, public_entry, public_table, public_table_deals, public_tables, public_tournament, table_version, tournament_version
from scoring.selectors.seating import SeatingHistory, seating_history
from scoring.selectors.standings import counted_rounds_filter, counts_round, head_to_head, place_count, standings_for, standings_table, tournament_figures, tournament_totals
from scoring.selectors.tables import round_defaults, table_by_scorer_token, table_detail, table_get, table_list, table_running_totals, table_seats
from scoring.selectors.tournaments import entry_list, players_not_entered, tournament_by_slug, tournament_get, tournament_list_for_club, tournament_list_for_director, tournament_list_for_home, tournament_unsettled_deals

__all__ = [
    "ChainReport", "audit_chunk_findings", "audit_detail", "audit_finding_counts", "audit_get", "audit_latest",
    "audit_standings_findings", "round_verify_chain", "standings_differences", "verify_chain",
    "user_by_api_token",
    "club_list_for_user", "player_list",
    "get_or_404",
    "action_log_for", "tournament_dashboard",
    "tournament_export",
    "disputed_rounds", "revision_detail", "round_detail", "round_details", "round_get", "round_history",
    "round_list", "round_of_table", "round_revisions", "round_rows", "table_history", "table_round_preview",
    "SeatingHistory", "seating_history",
    "payouts_for",
    "player_deals", "public_entry", "public_table", "public_table_deals", "public_tables", "public_tournament",
    "table_version", "tournament_version",
    "counted_rounds_filter", "counts_round", "head_to_head", "place_count", "standings_for", "standings_table", "tournament_figures",
    "tournament_totals",
    "round_defaults", "table_by_scorer_token", "table_detail", "table_get", "table_list", "table_running_totals",
    "table_seats",
    "entry_list", "players_not_entered", "tournament_by_slug", "tournament_get", "tournament_unsettled_deals", "tournament_list_for_club",
    "tournament_list_for_director", "tournament_list_for_home",
]
