"""The directors' login page, with failed logins limited per account and per address."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.shortcuts import render

from scoring.domain.inputs import MAX_USERNAME
from scoring.web import throttling
from scoring.web.auth import client_ip


def limited_page(request, e: throttling.Limited):
    """The 429 page of a refused request, with Retry-After."""
    response = render(request, "limited.html", {"message": e.message, "retry_after": e.retry_after}, status=429)
    response["Retry-After"] = str(e.retry_after)
    return response


class DirectorLoginView(auth_views.LoginView):
    template_name = "director/login.html"
    redirect_authenticated_user = True

    def _keys(self):
        username = self.request.POST.get("username", "")
        return client_ip(self.request) or "unknown", username.lower()[:MAX_USERNAME]

    def post(self, request, *args, **kwargs):
        address, account = self._keys()
        try:
            throttling.check(request, "login-address", address)
            throttling.check(request, "login-account", account)
        except throttling.Limited as e:
            return limited_page(request, e)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        address, account = self._keys()
        throttling.count(self.request, "login-address", address)
        throttling.count(self.request, "login-account", account)
        return super().form_invalid(form)
