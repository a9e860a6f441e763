"""Look-ups shared by every domain."""

from __future__ import annotations

from django.db.models.functions import Length

from scoring.domain.errors import NotFound


def table_order(via: str = "") -> tuple:
    """Tables by their number, "Table 2" before "Table 10" (a shorter name first, then by name),
    not as made: a table deleted and made anew keeps its place. ``via``: the path to the table
    from the rows ordered, e.g. ``"table__"``."""
    return (Length(f"{via}name"), f"{via}name", f"{via}id")


def get_or_404(model, **lookup):
    """One row, or NotFound (also for ids of the wrong type)."""
    try:
        return model.objects.get(**lookup)
    except (model.DoesNotExist, ValueError, TypeError):
        raise NotFound(f"No such {model._meta.verbose_name}.") from None
