from django.db import models


class Row(models.Model):
    """One small row per request: what the ceiling endpoint inserts."""

    table = models.PositiveIntegerField()
    points = models.JSONField()
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
