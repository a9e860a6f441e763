"""The pages' CSS and JS are static files (static/, loaded with {% static %}), never inline: no
script body, style element, style attribute or on...= handler in a template (a strict
Content-Security-Policy is coming). Links and form actions come from {% url %}, not hard-coded
paths. The API docs (Swagger UI, ReDoc) and the admin are served from the project's static files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

TEMPLATES = Path(settings.BASE_DIR) / "templates"

#: (what is wrong, pattern) for one template's text.
FORBIDDEN = [
    ("a script with a body (inline JavaScript)", re.compile(r"<script\b[^>]*>(?!\s*</script>)", re.I)),
    ("a style element", re.compile(r"<style\b", re.I)),
    ("a style attribute", re.compile(r"\sstyle\s*=", re.I)),
    ("an inline event handler", re.compile(r"\son[a-z]+\s*=", re.I)),
    ("a hard-coded path (use {% url %} or {% static %})", re.compile(r"""\s(?:href|action|src)\s*=\s*["']/""", re.I)),
]

STATIC_TAG = re.compile(r"""{%\s*static\s+["']([^"']+)["']\s*%}""")


def problems(text: str) -> list[str]:
    found = []
    for what, pattern in FORBIDDEN:
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append(f"line {line}: {what}: {text[m.start():m.start() + 60]!r}")
    return found


def inline_code(text: str) -> list[str]:
    """The problems of a rendered page that are inline code (its paths may be absolute)."""
    return [p for p in problems(text) if "hard-coded path" not in p]


def template_files() -> list[Path]:
    files = sorted(TEMPLATES.rglob("*.html"))
    assert files, f"no templates under {TEMPLATES}"
    return files


@pytest.mark.parametrize("path", template_files(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_a_template_has_no_inline_script_or_style_and_no_hard_coded_path(path):
    assert problems(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("snippet", [
    "<script>alert(1)</script>",
    '<script type="module">\n  go();\n</script>',
    "<style>p { color: red }</style>",
    '<p style="color:red">',
    "<form onsubmit=\"return confirm('Sure?')\">",
    '<select name="sample" onchange="this.form.submit()">',
    '<a href="/calculator/">',
    '<form method="post" action="/director/logout/">',
    '<img src="/static/logo.png">',
])
def test_the_check_sees_what_it_forbids(snippet):
    assert problems(snippet)


@pytest.mark.parametrize("snippet", [
    '<script src="{% static \'js/site.js\' %}" defer></script>',
    '<a href="{% url \'calculator\' %}?sample=x">',
    '<form data-confirm="Finish?" action="{{ action_url }}#result">',
    '<a href="{{ url }}">',
    '<button data-onclick="x" class="one">',
])
def test_the_check_lets_the_allowed_through(snippet):
    assert problems(snippet) == []


def test_every_static_file_a_template_names_exists():
    """A missing one would only show in production: the manifest storage refuses to render it."""
    names = {name for path in template_files() for name in STATIC_TAG.findall(path.read_text(encoding="utf-8"))}
    assert {"css/site.css", "js/site.js", "js/live.js", "js/deal-form.js"} <= names
    for name in names:
        assert finders.find(name), name


#: Scripts that use another's window.Gupai* as they run, and those, in the order they must load
#: (deferred scripts run in document order): the tile picker's and the scorer's deal form's.
USES = {
    "js/tile-picker.js": ["js/tile-text.js", "js/tile-moves.js"],
    "js/deal-drafts.js": ["js/deal-memory.js"],
}

SCRIPT_TAG = re.compile(r"""<script\b[^>]*{%\s*static\s+["']([^"']+)["']\s*%}[^>]*>""")


def test_a_script_is_loaded_deferred_right_after_the_scripts_it_uses():
    groups = [[*first, script] for script, first in USES.items()]
    loaded = set()
    for path in template_files():
        tags = [(m.group(1), " defer" in m.group(0)) for m in SCRIPT_TAG.finditer(path.read_text(encoding="utf-8"))]
        names = [name for name, _ in tags]
        for group in groups:
            named = [name for name in names if name in group]
            if named:  # all of the group, once each, one after the other in this order, deferred
                assert all(deferred for name, deferred in tags if name in group), path
                at = names.index(group[0]) if group[0] in names else -1
                assert named == group and names[at:at + len(group)] == group, (path, names)
                loaded.update(group)
    assert loaded == {name for group in groups for name in group}  # every group is loaded somewhere


def test_every_script_is_loaded_by_a_template():
    """A script split out of another and left unnamed would only show as a page that breaks."""
    scripts = Path(settings.BASE_DIR) / "static" / "js"
    names = {name for path in template_files() for name in STATIC_TAG.findall(path.read_text(encoding="utf-8"))}
    assert sorted(f"js/{p.name}" for p in scripts.glob("*.js") if f"js/{p.name}" not in names) == []


def test_one_poller_named_once():
    """static/js/live.js is the site's one poller (data-live-src and data-poll), loaded by
    base.html alone: named twice on a page, it would still ask once (it guards against that),
    and no other script polls these elements."""
    naming = [path for path in template_files() if "js/live.js" in STATIC_TAG.findall(path.read_text(encoding="utf-8"))]
    assert naming == [TEMPLATES / "base.html"]
    scripts = Path(settings.BASE_DIR) / "static" / "js"
    selectors = re.compile(r"\[data-(?:poll|live-src)\b")
    pollers = sorted(p.name for p in scripts.glob("*.js") if selectors.search(p.read_text(encoding="utf-8")))
    assert pollers == ["live.js"]


def test_the_project_static_dir_is_always_collected():
    assert Path(settings.BASE_DIR) / "static" in [Path(d) for d in settings.STATICFILES_DIRS]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["home", "calculator", "director-login"])
def test_the_pages_load_the_site_css_and_js_as_static_files(client, name):
    html = client.get(reverse(name)).content.decode()
    for url in ("/static/css/site.css", "/static/js/site.js", "/static/js/live.js", "/static/js/deal-form.js"):
        assert url in html
    for link in ("api-docs", "calculator", "director-login"):
        assert f'href="{reverse(link)}"' in html


@pytest.mark.django_db
def test_swagger_ui_comes_from_the_project(client):
    html = client.get(reverse("api-docs")).content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css" in html
    assert "http://" not in html and "https://" not in html  # nothing from a CDN
    assert inline_code(html) == []  # its start-up script is a file too (?script)
    script = client.get(reverse("api-docs") + "?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")


@pytest.mark.django_db
def test_redoc_comes_from_the_project(client):
    response = client.get(reverse("api-redoc"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js" in html
    assert "http://" not in html and "https://" not in html  # no CDN, no Google Fonts
    assert f'spec-url="{reverse("schema")}"' in html
    assert inline_code(html) == []
    assert finders.find("drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js")


@pytest.mark.django_db
def test_the_admin_renders_with_its_static_css(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "root-secret-1")
    client.force_login(admin)
    response = client.get("/admin/")
    assert response.status_code == 200
    assert "/static/admin/css/base.css" in response.content.decode()
    assert finders.find("admin/css/base.css")
