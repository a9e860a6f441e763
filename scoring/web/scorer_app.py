"""The installed scorer app: what its service worker (``/sw.js``, templates/scorer/sw.js) keeps on
the phone so that a scorer page opens with no network, and the worker's version.

``PRECACHED_STATIC`` is the one list of static files the scorer pages need (the ones
templates/base.html, scorer/table.html, scorer/home.html, scoring/correct.html and the tile
picker load, the app's icons): a name not among the static files is left out. Tiles are drawn inline in the pages (SVG,
``scoring.web.tile_art``): no tile image to keep. ``WORKER_SCRIPTS`` are loaded by the worker
itself (``importScripts``), in this order.

The worker's ``VERSION`` is a hash of its own template and of every file it keeps (name, URL and
content): any change to one of them is a new worker, whose caches are new (``gupai-static-`` and
``gupai-pages-`` + VERSION), so a phone never mixes files of two versions. URLs are
``static()``'s: the content-hashed names once collectstatic's manifest is in use.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.templatetags.static import static

PRECACHED_STATIC = (
    "css/site.css",
    # every page's (base.html)
    "js/site.js", "js/live.js", "js/clock.js", "js/deal-form.js",
    # the scorer's deal form and its tile picker
    "js/deal-fields.js", "js/deal-memory.js", "js/deal-drafts.js",
    "js/tile-text.js", "js/tile-moves.js", "js/tile-picker.js",
    # IndexedDB, the outbox, the worker's registration and the phone's tables page
    "vendor/idb/umd.js", "js/gupai-db.js", "js/outbox.js", "js/outbox-view.js",
    "js/sw-register.js", "js/scorer-home.js",
    # a proven player's "Allow notifications" (Web Push)
    "js/push.js",
    "img/favicon.ico", "img/favicon.svg", "img/apple-touch-icon.png",
    "icons/app-192.png", "icons/app-512.png",
)

#: What the worker runs besides its own text: idb, the one place the "gupai" database is opened,
#: and the outbox that the "sync" event drains (when there is one).
WORKER_SCRIPTS = ("vendor/idb/umd.js", "js/gupai-db.js", "js/outbox.js")

#: Where the worker's template is, and its name for the loader.
WORKER_TEMPLATE = "scorer/sw.js"

#: A file's digest by (path, modification time, size): /sw.js is asked on every scorer page's
#: navigation, and a file's content is read again only when it changed.
_digests: dict[tuple[str, int, int], str] = {}


def _path(name: str) -> Path | None:
    """The static file ``name`` on disk: the project's or an app's (the finders), else the
    collected one (STATIC_ROOT); None when there is none."""
    found = finders.find(name)
    if found:
        return Path(found)
    try:
        collected = Path(staticfiles_storage.path(name))
    except NotImplementedError:  # a storage without local files
        return None
    return collected if collected.is_file() else None


def _digest(path: Path) -> str:
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _digests:
        _digests[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return _digests[key]


def existing(names: tuple[str, ...]) -> list[tuple[str, Path]]:
    """The names among ``names`` that are static files, with their paths, in order."""
    return [(name, path) for name in names if (path := _path(name)) is not None]


def precached_urls() -> list[str]:
    """The static URLs the worker keeps (``static()``: hashed names when collected)."""
    return [static(name) for name, _ in existing(PRECACHED_STATIC)]


def worker_script_urls() -> list[str]:
    return [static(name) for name, _ in existing(WORKER_SCRIPTS)]


def worker_version(template_source: str, pages: list[str]) -> str:
    """A hash of the worker's own text, the pages it keeps and every static file it keeps."""
    h = hashlib.sha256(template_source.encode())
    for page in pages:
        h.update(b"\0page\0" + page.encode())
    for name, path in existing(PRECACHED_STATIC + WORKER_SCRIPTS):
        h.update(b"\0" + name.encode() + b"\0" + static(name).encode() + b"\0" + _digest(path).encode())
    return h.hexdigest()[:16]


__all__ = ["PRECACHED_STATIC", "WORKER_SCRIPTS", "WORKER_TEMPLATE", "existing", "precached_urls",
           "worker_script_urls", "worker_version"]
