"""The scorer's private table links (mounted at ``s/``): the token in the URL is the only key."""

from django.urls import path

from scoring.views import scorer, scorer_app, scorer_players, scorer_push

urlpatterns = [
    # The phone's tables (the installed app's start page): before the links, whose token it is not.
    path("", scorer_app.scorer_home, name="scorer-home"),
    path("<str:token>/", scorer.table_page, name="scorer-table"),
    path("<str:token>/ping/", scorer.ping, name="scorer-ping"),
    path("<str:token>/who/", scorer_players.who, name="scorer-who"),
    path("<str:token>/forget-me/", scorer_players.forget_me, name="scorer-forget-me"),
    path("<str:token>/notifications/", scorer_push.push_subscribe, name="scorer-push"),
    path("<str:token>/notifications/stop/", scorer_push.push_unsubscribe, name="scorer-push-stop"),
    path("<str:token>/deals/<int:round_id>/correct/", scorer.round_correct, name="scorer-round-correct"),
    path("<str:token>/deals/<int:round_id>/confirm/", scorer.round_confirm, name="scorer-round-confirm"),
    path("<str:token>/deals/<int:round_id>/dispute/", scorer.round_dispute, name="scorer-round-dispute"),
]
