"""Look-ups shared by every domain."""

from __future__ import annotations

from scoring.domain.errors import NotFound


def get_or_404(model, **lookup):
    """One row, or NotFound (also for ids of the wrong type)."""
    try:
        return model.objects.get(**lookup)
    except (model.DoesNotExist, ValueError, TypeError):
        raise NotFound(f"No such {model._meta.verbose_name}.") from None
