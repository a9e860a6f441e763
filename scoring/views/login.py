"""The directors' login page, with failed logins limited (``throttling.login_check``)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.shortcuts import render

from scoring.web import throttling
from scoring.web.auth import client_ip


def limited_page(request, e: throttling.Limited):
    """The 429 page of a refused request, with Retry-After."""
    response = render(request, "limited.html", {"message": e.message}, status=429)
    response["Retry-After"] = str(e.retry_after)
    return response


class DirectorLoginView(auth_views.LoginView):
    template_name = "director/login.html"
    redirect_authenticated_user = True

    def _keys(self):
        return self.request.POST.get("username", ""), client_ip(self.request) or "unknown"

    def post(self, request, *args, **kwargs):
        try:
            throttling.login_check(request, *self._keys())
        except throttling.Limited as e:
            return limited_page(request, e)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        throttling.login_failed(self.request, *self._keys())
        return super().form_invalid(form)
