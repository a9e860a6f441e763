"""The Django admin is for superusers only, and read-only for them too: every change goes
through a service, with its checks and its audit row. Directors use their own pages and the API."""

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig


class SuperuserAdminSite(admin.AdminSite):
    site_header = "Gupai Club (read-only)"

    def has_permission(self, request) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)


class GupaiAdminConfig(AdminConfig):
    default_site = "gupai_site.admin.SuperuserAdminSite"
