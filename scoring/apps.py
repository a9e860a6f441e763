from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = "Tournament scoring"

    def ready(self) -> None:
        # Register the Celery tasks: services enqueue them by name (services.common.enqueue_on_commit).
        from scoring import tasks  # noqa: F401
