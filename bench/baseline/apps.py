from django.apps import AppConfig


class BaselineConfig(AppConfig):
    """The framework's ceiling for the load benchmark: a bare DRF endpoint, only in bench runs."""

    name = "bench.baseline"
    label = "bench_baseline"
    default_auto_field = "django.db.models.BigAutoField"
