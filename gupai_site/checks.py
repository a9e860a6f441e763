"""System checks of the deployment (``manage.py check``; ``migrate`` runs them too)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.checks import Warning, register

W001 = "gupai_site.W001"


@register("staticfiles_manifest")
def collectstatic_has_run(app_configs, **kwargs):
    """Production storage without its manifest: pages work (the plain files are served), but
    without compressed, cache-forever file names. Run collectstatic at build time."""
    if getattr(staticfiles_storage, "manifest_found", True):
        return []
    return [Warning(
        "collectstatic has not run: there is no staticfiles.json in STATIC_ROOT "
        f"({settings.STATIC_ROOT}). The site serves the plain static files instead of the compressed, "
        "hashed ones.",
        hint="Run `python manage.py collectstatic --noinput` when building (the Dockerfile does).",
        id=W001)]
