"""The director's forms say which inputs may be left empty: every visible text or number input,
textarea, and select that offers an empty choice, either is ``required`` or says "(optional)" in its
label, never both. Walks the director's
form pages, so a new form keeps the rule."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from scoring.services.seasons import season_create

pytestmark = pytest.mark.django_db

FIELD_TYPES = {"text", "number", "search", "email", "url", "password", "tel", ""}
VOID = {"input", "br", "img", "hr", "meta", "link", "source", "wbr", "col", "area", "base", "embed", "param", "track"}


class Inputs(HTMLParser):
    """The page's inputs (text-like inputs, selects, textareas) not inside a hidden element, and
    the text of every label (by its ``for``, and of the label each input sits in)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, dict]] = []   # (tag, hidden, attrs)
        self.labels: dict[str, str] = {}
        self.open_labels: list[list] = []               # [for, text, inputs inside]
        self.inputs: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        hidden = (bool(self.stack) and self.stack[-1][1]) or "hidden" in a or a.get("type") == "hidden"
        if tag == "label":
            self.open_labels.append([a.get("for"), "", []])
        if tag in ("input", "select", "textarea") and not hidden and a.get("type", "") in FIELD_TYPES | (
                {a.get("type", "")} if tag != "input" else set()):
            field = {"tag": tag, "id": a.get("id"), "name": a.get("name"), "required": "required" in a,
                     "aria": a.get("aria-label"), "wrapped": "", "blank": tag != "select"}
            self.inputs.append(field)
            if self.open_labels:
                self.open_labels[-1][2].append(field)
        if tag == "option" and (a.get("value") or "") == "" and self.inputs and self.inputs[-1]["tag"] == "select":
            self.inputs[-1]["blank"] = True  # a select may be left empty only with an empty choice
        if tag == "table" and "sheet-grid" in (a.get("class") or ""):
            hidden = True  # a paper sheet's grid: see test_a_paper_sheets_columns_say_optional
        if tag not in VOID:
            self.stack.append((tag, hidden, a))

    def handle_endtag(self, tag):
        if tag == "label" and self.open_labels:
            for_, text, inside = self.open_labels.pop()
            if for_:
                self.labels[for_] = text
            for field in inside:
                field["wrapped"] = text
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        for label in self.open_labels:
            label[1] += data


def problems(page: str, url: str) -> list[str]:
    parser = Inputs()
    parser.feed(page)
    out = []
    for f in parser.inputs:
        if not f["blank"]:
            continue  # a select with no empty choice always sends one of its values
        label = " ".join((parser.labels.get(f["id"] or "") or f["wrapped"] or f["aria"] or "").split())
        optional = any(word in label for word in ("(optional)", "(optional:", ", optional)"))
        if f["required"] == optional:
            out.append(f"{url} {f['tag']} {f['name']!r} ({'required' if f['required'] else 'not required'}): {label!r}")
    return out


@pytest.fixture
def pages(client, director, director_actor, make_setup):
    s = make_setup("tau_ngau")
    draft = make_setup("jie_long", start=False, table_name="Table 2")
    season = season_create(actor=director_actor, club=s.tournament.club, name="Spring")
    client.force_login(director)
    club = s.tournament.club_id
    return client, [
        "/director/", f"/director/clubs/{club}/", f"/director/clubs/{club}/seasons/",
        f"/director/seasons/{season.pk}/", f"/director/clubs/{club}/ratings/",
        f"/director/tournaments/{s.tournament.pk}/", f"/director/tournaments/{draft.tournament.pk}/",
        f"/director/tournaments/{s.tournament.pk}/roster/", f"/director/tables/{s.table.pk}/",
    ]


def test_every_input_of_the_directors_forms_is_required_or_says_optional(pages):
    client, urls = pages
    found = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        found += problems(response.content.decode(), url)
    assert found == [], "\n".join(found)


def test_a_paper_sheets_columns_say_optional(client, director, make_setup):
    """A sheet's rows after the last deal stay empty, so no cell of its grid is ``required``: its
    columns (and each cell's words) say "(optional)" where a deal may leave the box empty, as the
    scorer's form does (Jie Long's tiles left)."""
    s = make_setup("jie_long")
    client.force_login(director)
    page = client.get(f"/director/tables/{s.table.pk}/paper-sheet/").content.decode()
    assert '<th scope="col" class="small">Tiles left (optional)</th>' in page
    assert '<th scope="col" class="small">Points</th>' in page
    assert 'aria-label="Row 1, Tiles left (optional), 1. Anna"' in page
