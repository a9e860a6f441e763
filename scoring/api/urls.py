from django.urls import path

from .evaluate import EvaluateView

urlpatterns = [
    path("evaluate/", EvaluateView.as_view(), name="api-evaluate"),
]
