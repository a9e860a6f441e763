from django.urls import path

from .views import BaselineView

urlpatterns = [
    path("bench/baseline/<int:table>/", BaselineView.as_view()),
    path("bench/baseline/<int:table>/<int:writes>/", BaselineView.as_view()),
    path("bench/baseline/<int:table>/<int:writes>/one/", BaselineView.as_view(), {"one": True}),
]
