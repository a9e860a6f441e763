"""Pages for everyone: home, the rules calculator (and, later, public tournament pages)."""

from django.urls import path

from .views import public

urlpatterns = [
    path("", public.home, name="home"),
    path("calculator/", public.calculator, name="calculator"),
]
