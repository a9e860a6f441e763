from django.urls import path

from .views import BaselineView

urlpatterns = [path("bench/baseline/<int:table>/", BaselineView.as_view())]
