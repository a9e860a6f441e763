"""The director's pages under ``/director/``: clubs, players, tournaments, tables, deals.

Every page needs a logged-in director (a staff user, see ``scoring.domain.actors``) and, for a club's
things, a director of that club; others get the login page or a 403 page. Views are thin:
read the form, call a service (every write) or a selector, redirect after a write.

A table's scorer link exists in plain text only right after ``table_create`` /
``table_scorer_token_rotate``, and only in the answer to that POST: the link page with the QR
code, rendered directly (``Cache-Control: no-store``), never stored anywhere (not in the
session either). That page then gives itself the address of the plain link page
(``static/js/replace-url.js``), so a reload asks for that page, which offers "New scorer link"
only. A form sent twice (a reload without JavaScript, Back and resubmit, a second tab) does not
act twice: a table that the same form already created is recognised (same name, same seats) and
a rotate form carries the link it replaces (``made``), so a stale one changes nothing; both
answer with the plain link page, saying so.

The modules: ``access`` (the director's checks: the thing's club, else 404), ``clubs`` (home,
clubs, players), ``players`` (player cards and codes), ``tournaments`` (a tournament's page and
console), ``roster`` (the roster page), ``sessions`` (seating, the sheet, closing, the clock), ``checkins`` (check-in for the session about
to be seated, the room's QR sheet),
``tables`` (tables and their scorer links, the table page), ``substitutions`` (a player
substituted at a table), ``table_deals`` (a deal's revisions when asked, "Confirm all shown"),
``rounds`` (deals: late, void, dispute, confirm,
correct), ``paper_sheets`` (printable sheets), ``paper_sheet_entry`` (a paper sheet typed in),
``audits`` (the audit box), ``adjustments`` (fines and bonuses outside the deals), ``imports`` (download and upload of a tournament document),
``ratings`` (the ladder and its settings), ``report`` (the tournament report), ``seasons``,
``referees`` (a tournament's referees added and taken away) and ``referee`` (the referee's page:
disputes, adjustments, substitutions).
"""

from scoring.views.director.adjustments import adjustment_add, adjustment_remove
from scoring.views.director.audits import audit_box, audit_start
from scoring.views.director.checkins import check_in_open, check_in_page, check_in_sheet
from scoring.views.director.clubs import club_create, club_page, home, players_add, tournament_create
from scoring.views.director.imports import import_box, import_page, import_upload, tournament_download
from scoring.views.director.paper_sheet_entry import table_paper_sheet
from scoring.views.director.paper_sheets import (
                                           paper_sheets_box,
                                           paper_sheets_download,
                                           paper_sheets_start,
                                           session_paper_sheets,
)
from scoring.views.director.players import player_card, player_cards, player_code_reset
from scoring.views.director.ratings import ratings_page, ratings_rebuild, ratings_settings
from scoring.views.director.referee import (
                                           referee_adjustment_add,
                                           referee_adjustment_delete,
                                           referee_page,
                                           referee_resolve,
                                           referee_table,
)
from scoring.views.director.referees import referees_add, referees_remove
from scoring.views.director.report import tournament_report_page, tournament_report_pdf
from scoring.views.director.roster import (
                                           entry_late,
                                           entry_reenter,
                                           entry_withdraw,
                                           player_rename,
                                           roster_page,
                                           table_delete,
                                           tournament_delete,
)
from scoring.views.director.rounds import round_confirm, round_correct, round_resolve, round_void, table_deal
from scoring.views.director.seasons import season_page, season_tournament_add, season_tournament_remove, seasons_page
from scoring.views.director.sessions import (
                                           session_clock_start,
                                           session_clock_stop,
                                           session_close,
                                           session_reopen,
                                           session_seat,
                                           session_sheet,
)
from scoring.views.director.substitutions import table_substitute
from scoring.views.director.table_deals import round_revisions, round_revisions_part, table_confirm_shown
from scoring.views.director.tables import table_create, table_link, table_page, table_rotate
from scoring.views.director.tournaments import (
                                           entries_add,
                                           tournament_finish,
                                           tournament_live,
                                           tournament_page,
                                           tournament_settings,
                                           tournament_start,
)

__all__ = [
    "home", "club_create", "club_page", "players_add", "tournament_create",
    "tournament_page", "tournament_live", "tournament_settings", "entries_add", "tournament_start", "tournament_finish",
    "session_seat", "session_sheet", "session_paper_sheets", "table_paper_sheet", "session_close", "session_reopen", "session_clock_start", "session_clock_stop", "table_create", "table_rotate", "table_link", "table_page",
    "table_deal", "round_void", "round_resolve", "round_confirm", "round_correct", "audit_start", "audit_box",
    "adjustment_add", "adjustment_remove", "check_in_page", "check_in_open", "check_in_sheet",
    "player_cards", "player_card", "player_code_reset", "ratings_page", "ratings_rebuild", "ratings_settings",
    "roster_page", "player_rename", "entry_late", "entry_withdraw", "entry_reenter", "table_delete", "tournament_delete",
    "tournament_download", "import_upload", "import_page", "import_box",
    "tournament_report_page", "tournament_report_pdf",
    "seasons_page", "season_page", "season_tournament_add", "season_tournament_remove",
    "paper_sheets_start", "paper_sheets_box", "paper_sheets_download", "table_substitute",
    "round_revisions", "round_revisions_part", "table_confirm_shown",
    "referees_add", "referees_remove", "referee_page", "referee_resolve", "referee_adjustment_add",
    "referee_adjustment_delete", "referee_table",
]
