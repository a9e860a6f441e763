"""Four languages: English, 简体中文, 繁體中文, 한국어. Accept-Language is honoured, the switch of
every page keeps a choice, every entry of every catalog is translated (none fuzzy), and the rules
engine's messages are translated at the edge with their codes unchanged."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

import games
from scoring.services.rounds import round_record
from scoring.web import rule_messages

ROOT = Path(__file__).resolve().parents[2]
#: Every catalog in locale/, whichever languages it holds.
LOCALES = tuple(sorted(p.parent.parent.name for p in (ROOT / "locale").glob("*/LC_MESSAGES/django.po")))
HANS = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}
HANT = {"HTTP_ACCEPT_LANGUAGE": "zh-Hant,zh;q=0.8"}
KO = {"HTTP_ACCEPT_LANGUAGE": "ko-KR,ko;q=0.9"}

# A Jie Long deal at points level, playing order = table order.
JIE_LONG = {"leader": 0, "points": [0, 7, 12, 3], "unplayed": [0, 2, 3, 1]}


# --- the pages ---------------------------------------------------------------------------------

@pytest.mark.django_db
def test_home_page_follows_accept_language(client):
    english = client.get("/").content.decode()
    assert '<html lang="en">' in english and "Scoring for traditional Chinese domino games" in english
    hans = client.get("/", **HANS).content.decode()
    assert '<html lang="zh-hans">' in hans
    assert "中国传统骨牌游戏记分" in hans and "规则计算器" in hans
    assert "顶牛" in hans and "接龙" in hans and "꼬리붙이기" in hans  # game names in their own scripts
    hant = client.get("/", **HANT).content.decode()
    assert '<html lang="zh-hant">' in hant
    assert "中國傳統骨牌遊戲記分" in hant and "頂牛" in hant and "鬥牛" in hant and "接龍" in hant


@pytest.mark.django_db
def test_home_page_in_korean(client):
    page = client.get("/", **KO).content.decode()
    assert '<html lang="ko">' in page
    assert "골패 클럽" in page and "규칙 계산기" in page and "언어" in page
    # Game names in their own scripts: the Korean game in Hangul, the Chinese ones in Hanja.
    assert "꼬리붙이기" in page and "接龍" in page and "頂牛" in page and "鬪牛" in page


@pytest.mark.django_db
def test_scorer_page_in_korean(client, jie_long):
    page = client.get(f"/s/{jie_long.token}/", **KO).content.decode()
    assert "미리 보기" in page and "제출" in page and "입력자" in page
    assert "점수" in page and "내지 못한 패" in page  # the form's words come from games.catalog
    assert 'data-text-sending="' in page and "Sending" not in page


@pytest.mark.django_db
def test_a_refused_move_is_said_in_korean(client, jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={**JIE_LONG, "entered_by": 1})
    confirm = f"/s/{jie_long.token}/deals/{rnd.pk}/confirm/"
    assert client.post(confirm, {"confirmed_by": "2"}, **KO).status_code == 302
    again = client.post(confirm, {"confirmed_by": "3"}, **KO)
    assert again.status_code == 409 and "이 판은 이미 확인되었습니다." in again.content.decode()


@pytest.mark.django_db
def test_public_standings_and_director_pages_in_korean(client, jie_long):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={"number": 1, **JIE_LONG})
    page = client.get(f"/t/{jie_long.tournament.slug}/", **KO).content.decode()
    assert "순위" in page and "득실" in page and "接龍" in page
    client.force_login(jie_long.director)
    home = client.get("/director/", **KO).content.decode()
    assert '<html lang="ko">' in home and "진행 중" in home


@pytest.mark.django_db
def test_scorer_page_in_chinese(client, jie_long):
    page = client.get(f"/s/{jie_long.token}/", **HANS).content.decode()
    assert "预览" in page and "提交" in page and "录入者" in page
    assert "点数" in page and "未出的牌" in page  # the form's words come from games.catalog
    # The scripts' words come from the template, in the page's language.
    assert 'data-text-sending="正在发送……"' in page
    hant = client.get(f"/s/{jie_long.token}/", **HANT).content.decode()
    assert "預覽" in hant and "錄入者" in hant


@pytest.mark.django_db
def test_a_refused_move_is_said_in_chinese_on_the_scorer_page(client, jie_long):
    """The lifecycle's refusals are translated (their codes are not): confirming a deal twice,
    by a hand-made POST (the page offers no second Confirm)."""
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={**JIE_LONG, "entered_by": 1})
    confirm = f"/s/{jie_long.token}/deals/{rnd.pk}/confirm/"
    assert client.post(confirm, {"confirmed_by": "2"}, **HANS).status_code == 302
    again = client.post(confirm, {"confirmed_by": "3"}, **HANS)
    assert again.status_code == 409
    assert "这一局已经确认过了。" in again.content.decode()
    hant = client.post(confirm, {"confirmed_by": "3"}, **HANT).content.decode()
    assert "這一局已經確認過了。" in hant
    assert "This deal is already confirmed." in client.post(confirm, {"confirmed_by": "3"}).content.decode()


@pytest.mark.django_db
def test_a_too_long_dispute_message_is_refused_in_chinese(client, jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={**JIE_LONG, "entered_by": 1})
    page = client.post(f"/s/{jie_long.token}/deals/{rnd.pk}/dispute/", {"message": "x" * 2001}, **HANS)
    assert page.status_code == 400 and "问题说明最多 2000 个字符。" in page.content.decode()


@pytest.mark.django_db
def test_public_standings_in_chinese(client, jie_long):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={"number": 1, **JIE_LONG})
    page = client.get(f"/t/{jie_long.tournament.slug}/", **HANS).content.decode()
    assert "积分榜" in page and "净得" in page and "接龙" in page
    hant = client.get(f"/t/{jie_long.tournament.slug}/", **HANT).content.decode()
    assert "積分榜" in hant and "淨得" in hant
    payouts = client.get(f"/t/{jie_long.tournament.slug}/payouts/", **HANS).content.decode()
    assert "谁付给谁" in payouts and "付给" in payouts


@pytest.mark.django_db
def test_director_page_in_chinese(client, jie_long):
    client.force_login(jie_long.director)
    home = client.get("/director/", **HANS).content.decode()
    assert "你的比赛" in home and "你的俱乐部" in home and "进行中" in home
    dashboard = client.get(f"/director/tournaments/{jie_long.tournament.pk}/", **HANT).content.decode()
    assert "牌桌" in dashboard and "結束比賽" in dashboard and "記分員" in dashboard


@pytest.mark.django_db
def test_the_switch_keeps_the_choice(client):
    page = client.get("/").content.decode()
    assert 'action="/i18n/setlang/"' in page and '<label for="language-select">' in page
    assert '<option value="zh-hant" lang="zh-hant">繁體中文</option>' in page
    assert '<option value="ko" lang="ko">한국어</option>' in page
    response = client.post("/i18n/setlang/", {"language": "zh-hant", "next": "/calculator/"})
    assert response.status_code == 302 and response["Location"] == "/calculator/"
    # The choice outweighs the browser's Accept-Language from now on.
    again = client.get("/calculator/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="zh-hant">' in again and "規則計算器" in again
    client.post("/i18n/setlang/", {"language": "ko", "next": "/calculator/"})
    assert '<html lang="ko">' in client.get("/calculator/", **HANS).content.decode()
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Rules calculator" in client.get("/", **HANS).content.decode()


@pytest.mark.django_db
def test_urls_do_not_change_with_the_language(client, jie_long):
    """Scorer links and QR codes are the same in every language: no language prefix."""
    assert client.get(f"/s/{jie_long.token}/", **HANT).status_code == 200
    assert client.get(f"/zh-hant/s/{jie_long.token}/").status_code == 404


# --- the catalogs --------------------------------------------------------------------------------

def _po_entries(locale: str) -> list[dict]:
    """(msgid, msgid_plural, msgstr…, flags) of each entry of a .po file (a small reader)."""
    entries, current, key = [], None, None
    text = (ROOT / "locale" / locale / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    for line in text.splitlines() + [""]:
        if not line.strip():
            if current is not None:
                entries.append(current)
            current, key = None, None
            continue
        if current is None:
            current = {"flags": set()}
        if line.startswith("#,"):
            current["flags"] |= {f.strip() for f in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            current[key] += ast.literal_eval(line)
        else:
            key, _, value = line.partition(" ")
            current[key] = ast.literal_eval(value)
    return [e for e in entries if "msgid" in e]


def test_every_language_of_the_site_has_its_catalog():
    from django.conf import settings
    from django.utils.translation import to_locale

    assert {"zh_Hans", "zh_Hant", "ko"} <= set(LOCALES)
    assert {to_locale(code) for code, _ in settings.LANGUAGES if code != "en"} == set(LOCALES)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_entry_is_translated_and_none_is_fuzzy(locale):
    entries = _po_entries(locale)
    assert len(entries) > 400
    for e in entries:
        assert "fuzzy" not in e["flags"], e["msgid"]
        if not e["msgid"]:
            continue  # the header
        strings = [v for k, v in e.items() if k.startswith("msgstr")]
        assert strings and all(s.strip() for s in strings), e["msgid"]
        # The same placeholders in the translation as in the English.
        names = set(re.findall(r"%\((\w+)\)[sd]|\{(\w+)\}", e["msgid"]))
        for s in strings:
            assert set(re.findall(r"%\((\w+)\)[sd]|\{(\w+)\}", s)) == names, (e["msgid"], s)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_catalog_holds_the_same_entries(locale):
    """Each catalog has every entry of the Simplified one (none missing, none extra), each plural
    entry as many forms as its header's nplurals, and keeps the HTML tags of the English."""
    entries = _po_entries(locale)
    header = next(e for e in entries if not e["msgid"])["msgstr"]
    plurals = int(re.search(r"nplurals=(\d+);", header).group(1))
    assert {e["msgid"] for e in entries} == {e["msgid"] for e in _po_entries("zh_Hans")}
    for e in entries:
        if "msgid_plural" in e:
            assert sorted(k for k in e if k.startswith("msgstr")) == [f"msgstr[{i}]" for i in range(plurals)], e["msgid"]
        for key in (k for k in e if k.startswith("msgstr") and e["msgid"]):
            assert sorted(re.findall(r"</?\w+", e[key])) == sorted(re.findall(r"</?\w+", e["msgid"])), e["msgid"]


def test_the_korean_catalog_is_in_korean():
    """One plural form (Korean has no plural), every sentence in Hangul, and the words of the
    pages where the other catalogs have theirs."""
    entries = _po_entries("ko")
    assert "Plural-Forms: nplurals=1; plural=0;" in entries[0]["msgstr"] and "Language: ko" in entries[0]["msgstr"]
    ko = {e["msgid"]: e for e in entries}
    assert ko["Standings"]["msgstr"] == "순위" and ko["Banker"]["msgstr"] == "뱅커"
    assert ko["Language"]["msgstr"] == "언어" and ko["Rules calculator"]["msgstr"] == "규칙 계산기"
    hangul = re.compile("[\uac00-\ud7a3]")
    no_hangul = [e["msgid"] for e in entries[1:] if re.search(r"[A-Za-z]{4,} [a-z]{3,}", e["msgid"])
                 and not any(hangul.search(v) for k, v in e.items() if k.startswith("msgstr"))]
    assert no_hangul == []


def test_both_chinese_catalogs_hold_the_same_entries_in_their_own_script():
    hans = {e["msgid"]: e for e in _po_entries("zh_Hans")}
    hant = {e["msgid"]: e for e in _po_entries("zh_Hant")}
    assert hans.keys() == hant.keys()
    assert hans["Standings"]["msgstr"] == "积分榜" and hant["Standings"]["msgstr"] == "積分榜"
    assert hans["Net"]["msgstr"] == "净得" and hant["Net"]["msgstr"] == "淨得"
    assert hant["Banker"]["msgstr"] == "莊家" and hans["Banker"]["msgstr"] == "庄家"


# --- the rules engine's messages -----------------------------------------------------------------

def engine_codes() -> set[str]:
    """Every code the engine can answer, read from games/: the second argument of each
    ``.error(...)`` / ``.warn(...)`` and every ``"code": "…"`` literal."""
    codes = set()
    for path in (ROOT / "games").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("error", "warn") and len(node.args) >= 2
                    and isinstance(node.args[1], ast.Constant)):
                codes.add(node.args[1].value)
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if isinstance(k, ast.Constant) and k.value == "code" and isinstance(v, ast.Constant):
                        codes.add(v.value)
    return codes


def test_every_engine_code_has_a_translation():
    codes = engine_codes()
    assert {"not_matching", "impossible_points", "bad_tile", "suboptimal", "bad_json"} <= codes
    assert codes - rule_messages.CODES.keys() == set()
    for locale in LOCALES:
        translated = {e["msgid"] for e in _po_entries(locale)}
        sentences = list(rule_messages.CODES.values()) + [t for ts in rule_messages.TEMPLATES.values() for t in ts]
        assert [s for s in sentences + list(rule_messages.WORDS) if s not in translated] == []


def _evaluate_in(language: str, record: dict) -> list[dict]:
    with translation.override(language):
        return rule_messages.translate_problems(games.evaluate(record)["errors"])


BAD_LOG = {"format": 1, "game": "jie_long", "seats": ["Anna", "Bob", "Celine", "Dominic"],
           "moves": [{"play": "6:4", "open": 6}, {"play": "4:1"}]}


def test_engine_messages_keep_their_codes_and_gain_their_values():
    english = games.evaluate(BAD_LOG)["errors"]
    assert english[0]["code"] == "not_matching"
    assert _evaluate_in("en", BAD_LOG) == english
    hans = _evaluate_in("zh-hans", BAD_LOG)
    assert [(e["path"], e["code"]) for e in hans] == [(e["path"], e["code"]) for e in english]
    assert hans[0]["message"] == "[4:1] 接不上开口端 6。"
    assert _evaluate_in("zh-hant", BAD_LOG)[0]["message"] == "[4:1] 接不上開口端 6。"
    assert _evaluate_in("ko", BAD_LOG)[0]["message"] == "[4:1]은(는) 열린 끝 6에 맞지 않습니다."


@pytest.mark.parametrize("record, code, words", [
    ({"format": 1, "game": "ding_niu", "seats": ["A", "B", "C"], "points": [1, 2, 3]},
     "wrong_player_count", "頂牛必須正好 4 人玩，不是 3 人。"),
    ({"format": 1, "game": "jie_long", "seats": ["A", "B", "C", "D"], "points": [0, 1, 2, 3], "unplayed": [0, 1, 1, 1]},
     "impossible_points", "不可能是 1 點"),
    ({"format": 1, "game": "jie_long", "seats": ["A", "B"], "unplayed_tiles": [["7:1"], []]},
     "bad_tile", "'7:1' 不是一張牌"),
    ({"format": 2}, "unknown_format", "記錄格式必須是 1。"),
    ({"format": 1, "game": "jie_long", "seats": ["A", "A"], "points": [0, 1]}, "duplicate_name", "'A' 坐了兩個座位"),
])
def test_engine_messages_in_traditional_chinese(record, code, words):
    errors = _evaluate_in("zh-hant", record)
    mine = [e for e in errors if e["code"] == code]
    assert mine and words in mine[0]["message"], errors


def test_an_unknown_message_falls_back_to_its_code_sentence():
    with translation.override("zh-hans"):
        assert rule_messages.translate_message("bad_move", "Something new.") == "无法读取这一步。"
        assert rule_messages.translate_message("no_such_code", "Something new.") == "Something new."


@pytest.mark.django_db
def test_the_api_translates_messages_not_codes(anon_client):
    english = anon_client.post("/api/v1/evaluate/", BAD_LOG, format="json")
    assert english.status_code == 400 and english.json()["errors"][0]["message"] == "[4:1] does not match the open end 6."
    hans = anon_client.post("/api/v1/evaluate/", BAD_LOG, format="json", **HANS)
    assert hans.json()["errors"][0] == {"path": "moves[1].play", "code": "not_matching",
                                        "message": "[4:1] 接不上开口端 6。"}


@pytest.mark.django_db
def test_the_calculator_shows_engine_errors_in_chinese(client):
    import json

    page = client.post("/calculator/", {"record": json.dumps(BAD_LOG)}, **HANS).content.decode()
    assert "[4:1] 接不上开口端 6。" in page and "not_matching" in page


EXAMPLES = sorted((ROOT / "tests" / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_message_is_translated_in_full(path):
    """The examples' errors and warnings are read through their own sentence (a fixed one or a
    template with its values), not only through their code's general sentence."""
    import json

    result = games.evaluate(json.loads(path.read_text(encoding="utf-8")))
    problems = result.get("errors", []) + result.get("warnings", [])
    with translation.override("zh-hans"):
        for p in problems:
            translated = rule_messages.translate_message(p["code"], p["message"])
            assert translated != p["message"], p
            assert translated != translation.gettext(rule_messages.CODES[p["code"]]), p


@pytest.mark.parametrize("language", ["zh-hant", "ko"])
@pytest.mark.parametrize("key", list(games.CATALOG))
def test_every_word_of_every_deal_form_is_translated(key, language):
    """Labels, options, hints and the messages of a form left empty, for each game."""
    from scoring.web.deal_form import DealForm

    game = games.get_game(key)
    n = game.player_counts[-1]
    seats = [{"position": i, "name": f"P{i}"} for i in range(n)]
    with translation.override(language):
        form = DealForm(game=key, variant=game.variant_defaults(), seats=seats, data={"level": ""},
                        previous={"banker": 0})  # a bank that has just left seat 0: its hint
        form.body()  # an empty form: every input's "missing" message
        ctx = form.context()
        fields = ctx["top"] + ctx["bottom"] + [f for row in ctx["rows"] for f in row["fields"]]
        words = [f["label"] for f in fields] + [f.get(k, "") for f in fields for k in ("placeholder", "left_behind")]
        words += [text for f in fields for _, text in f.get("options", []) if text and not text[0].isdigit()]
        words += [e for f in fields for e in f["errors"]] + ctx["section_errors"]
    english = [w for w in words if re.search(r"[A-Za-z]{3,}", re.sub(r"P\d|e\.g\.|[a-z_]+\s*[:=]", "", str(w)))]
    assert english == []


LEVELS = [(key, level) for key, g in games.CATALOG.items() for level, _ in g.entry.levels]


@pytest.mark.parametrize("language", ["zh-hans", "ko"])
@pytest.mark.parametrize("key, level", LEVELS, ids=[f"{k}-{lv}" for k, lv in LEVELS])
def test_every_level_of_every_deal_form_says_its_errors_translated(key, level, language):
    """The messages of a form left empty at each level (a seat without its value, ...)."""
    from scoring.web.deal_form import DealForm

    game = games.get_game(key)
    seats = [{"position": i, "name": f"P{i}"} for i in range(game.player_counts[-1])]
    with translation.override(language):
        form = DealForm(game=key, variant=game.variant_defaults(), seats=seats, data={"level": level})
        form.body()
        words = [e for messages in form.errors.values() for e in messages]
    english = [w for w in words if re.search(r"[A-Za-z]{3,}", re.sub(r"P\d", "", w))]
    assert english == []


@pytest.mark.parametrize("record, code, words", [
    ({"format": 1, "game": "tau_ngau", "seats": ["A", "B", "C"], "banker": 0, "stakes": [None, 1, 1],
      "values": [None, 10, 3]}, "bad_value", "牛值是 null（无牛）或 0 到 9 的整数。"),
    ({"format": 1, "game": "tau_ngau", "seats": ["A", "B", "C"], "banker": 0, "stakes": [None, 1, 1]},
     "missing_level", "每个座位的手牌（hands）或牌桌商定的牛值（values）"),
    ({"format": 1, "game": "da_ling", "seats": ["A", "B", "C"], "winners": {"absolute": 1, "groups": [0, None, None]}},
     "unexpected_field", "有人通吃时，各牌组没有单独的赢家：1 张牌组必须为 null。"),
    ({"format": 1, "game": "da_ling", "seats": ["A", "B", "C"], "winners": {"absolute": 3, "groups": None}},
     "bad_seat", "通吃的赢家必须是 0 到 2 的座位号，或 null。"),
])
def test_the_quick_levels_errors_in_simplified_chinese(record, code, words):
    errors = _evaluate_in("zh-hans", record)
    mine = [e for e in errors if e["code"] == code]
    assert mine and words in mine[0]["message"], errors


def test_the_quick_levels_warning_and_general_sentences_are_translated():
    record = {"format": 1, "game": "da_ling", "seats": ["A", "B"], "winners": {"absolute": None, "groups": [0, 1, None]}}
    warning = games.evaluate(record)["warnings"][0]
    assert warning["code"] == "unverified"
    with translation.override("zh-hant"):
        assert rule_messages.translate_problem(warning)["message"] == "贏家以牌桌的說法為準：沒有牌組，規則引擎無法核對。"
        # a sentence the catalogs do not hold falls back to its code's, which names no game's fields
        assert rule_messages.translate_message("missing_level", "Something new.") == "請按一種詳細程度給出本局結果。"
        assert rule_messages.translate_message("unverified", "Something new.") == "本局以牌桌的說法為準：規則引擎無法核對。"


_BLOCK = re.compile(r"{% blocktranslate([^%]*)%}(.*?){% endblocktranslate %}", re.S)


def test_a_count_of_deals_is_said_with_its_plural():
    """"1 deals" is never shown: a template that puts a number before "deals" says it with
    ``blocktranslate count`` (its singular and plural)."""
    bare = []
    for path in (ROOT / "templates").rglob("*.html"):
        for tag, body in _BLOCK.findall(path.read_text(encoding="utf-8")):
            if re.search(r"}} deals\b", body) and "count" not in tag:
                bare.append(f"{path.relative_to(ROOT)}: {body[:60]}")
    assert bare == []


@pytest.mark.django_db
def test_the_bankers_figures_say_one_deal():
    from django.template.loader import render_to_string

    html = render_to_string("public/_stats_figures.html", {"f": {"banker": {"deals": 1, "won": 0, "net": 3}}})
    assert "1 deal, 0 won, net 3" in html and "1 deals" not in html


@pytest.mark.parametrize("language", ["zh_Hans", "zh_Hant"])
def test_a_chinese_sentence_ends_with_a_chinese_full_stop(language):
    """No msgstr ends with an ASCII "." (it ends with "。"), unless its msgid ends with "..." or
    a code (a file name, a path); and no template puts an ASCII "." after a translated phrase."""
    entries = _po_entries(language)
    assert len(entries) > 1000
    wrong = [(e["msgid"], text) for e in entries for key, text in e.items() if key.startswith("msgstr")
             and text.endswith(".") and not e["msgid"].endswith("...")
             and not re.search(r"[`/_][\w./-]*\.$", e["msgid"])]
    assert wrong == []
    after = re.compile(r"(endblocktranslate|translate \"[^\"]*\"|translate '[^']*') ?%}\.|{% endif %}\.(<|{|$)", re.M)
    assert [str(p) for p in (ROOT / "templates").rglob("*.html") if after.search(p.read_text(encoding="utf-8"))] == []


def test_a_sentence_ends_in_the_pages_language(client, make_setup):
    s = make_setup("jie_long")
    with translation.override("zh-hans"):
        page = client.get(f"/s/{s.token}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert re.search(r"计入[^<]*。</p>", page), re.findall(r'<p class="muted small">[^<]*</p>', page)
