"""The marker of the form's words (labels, hints, blurbs) that the site translates.

The engine stays in English and free of Django: ``gettext_noop`` returns its text unchanged, and
only tells ``makemessages`` to put the text in the site's catalogs; the site translates it where
it shows it (``scoring.web.deal_form``, the home page)."""

from __future__ import annotations


def gettext_noop(text: str) -> str:
    return text
