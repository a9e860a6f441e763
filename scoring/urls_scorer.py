"""The scorer's private table links (mounted at ``s/``): the token in the URL is the only key."""

from django.urls import path

from scoring.views import scorer

urlpatterns = [
    path("<str:token>/", scorer.table_page, name="scorer-table"),
    path("<str:token>/deals/<int:round_id>/correct/", scorer.round_correct, name="scorer-round-correct"),
    path("<str:token>/deals/<int:round_id>/confirm/", scorer.round_confirm, name="scorer-round-confirm"),
    path("<str:token>/deals/<int:round_id>/dispute/", scorer.round_dispute, name="scorer-round-dispute"),
]
