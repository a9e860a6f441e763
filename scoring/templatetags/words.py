"""Words for stored codes, in the page's language: ``{{ d.status|deal_status }}``; which
session and table a page names: ``{{ table|table_label }}``, ``{% session_table 2 "Table 1" %}``."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

from scoring.models import Round
from scoring.web import presentation

register = template.Library()


@register.filter
def table_label(table):
    """A Table (its session read with it) as "Session 2 · Table 1" (``presentation.session_table``)."""
    return presentation.session_table(table.session.number, table.name)


@register.simple_tag
def session_table(session, name):
    """A table named by its session's number and its name: "Session 2 · Table 1"."""
    return presentation.session_table(session, name)


@register.filter
def rated_result(row):
    """A player's rated result (a deal, or a table's session) in words (``presentation.rated_result``)."""
    return presentation.rated_result(row)


@register.simple_tag
def finish_leaves(counts, sessions):
    """What a finish leaves as it is, line by line (``presentation.finish_leaves``)."""
    return presentation.finish_leaves(counts or {}, sessions or [])


@register.filter
def table_name(name):
    """A table's name alone, a generated "Table N" translated (``presentation.table_name``)."""
    return presentation.table_name(name)


@register.filter
def deal_status(value):
    """A deal's status ("recorded", …) as its translated label; an unknown value as it is."""
    try:
        return Round.Status(value).label
    except ValueError:
        return value


#: The audit log's actions, as a director reads them on the dashboard.
ACTION_WORDS = {
    "director_create": _("director created"), "auth_token_create": _("API token made"),
    "club_create": _("club created"), "club_director_add": _("director added to the club"),
    "player_create": _("player added"), "tournament_create": _("tournament created"),
    "tournament_update": _("settings changed"), "tournament_start": _("tournament started"),
    "tournament_finish": _("tournament finished"), "entry_create": _("player entered"),
    "session_create": _("session created"), "table_create": _("table created"),
    "table_scorer_token_rotate": _("scorer link replaced"), "round_record": _("deal recorded"),
    "round_correct": _("deal corrected"), "round_confirm": _("deal confirmed"), "round_void": _("deal voided"),
    "round_dispute": _("referee called"), "round_dispute_resolve": _("dispute settled"),
    "auth_tokens_revoke": _("API tokens revoked"), "idempotency_keys_cleanup": _("old retry keys removed"),
    "auth_tokens_cleanup": _("expired API tokens removed"),
    "standings_repair": _("standings repaired"), "session_seat": _("session seated"),
    "session_close": _("session closed"), "session_reopen": _("session reopened"),
    "session_clock_start": _("session clock started"), "session_clock_stop": _("session clock stopped"),
    "tournament_import": _("tournament imported"), "tournament_import_queue": _("tournament file uploaded"),
    "audit_start": _("audit asked"),
    "audit_resume": _("audit resumed"), "audit_finish": _("audit finished"),
    "player_rename": _("player renamed"), "entry_withdraw": _("player withdrawn"),
    "entry_reenter": _("player entered again"), "table_delete": _("table deleted"),
    "tournament_delete": _("tournament deleted"),
    "entry_check_in": _("player checked in"), "entry_check_in_undo": _("check-in undone"),
}

#: An audit's status and its findings' kinds.
AUDIT_WORDS = {
    "queued": _("Queued"), "running": _("Running"), "passed": _("Passed"), "failed": _("Failed"),
    "result_mismatch": _("result differs"), "hash_chain": _("hash chain broken"),
    "zero_sum": _("does not sum to zero"), "standings_mismatch": _("standings differ"),
    "engine_version": _("other engine version"),
}


@register.filter
def action_words(value):
    """An audit-log action code in words; an unknown code as it is."""
    return ACTION_WORDS.get(value, value)


@register.filter
def audit_words(value):
    """An audit's status or a finding's kind in words; an unknown code as it is."""
    return AUDIT_WORDS.get(value, value)
