from django.urls import include, path

from .views import BaselineView

urlpatterns = [
    path("bench/baseline/<int:table>/", BaselineView.as_view()),
    path("", include("gupai_site.urls")),
]
