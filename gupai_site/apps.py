from django.apps import AppConfig


class GupaiSiteConfig(AppConfig):
    """The site itself as an app, for its system checks (``gupai_site.checks``) and the deals
    counted for ``/metrics`` (``gupai_site.metrics``), and PostgreSQL's connections made to carry the
    rows' scope (``gupai_site.row_security``)."""

    name = "gupai_site"
    label = "gupai_site"
    verbose_name = "Gupai Club site"

    def ready(self) -> None:
        from gupai_site import (
            checks,  # noqa: F401  (registers the checks)
            metrics,
            row_security,
        )

        metrics.connect()
        row_security.connect()
