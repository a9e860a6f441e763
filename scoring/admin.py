"""The Django admin for directors: every model; revisions, the action log, idempotency keys and
standings are read-only (they are written by services only)."""

from django.contrib import admin

from .models import (ActionLog, Club, Entry, IdempotencyKey, Player, Round, RoundRevision, Seat, Session,
                     Standing, Table, Tournament)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created_at")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("directors",)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club")
    list_filter = ("club",)
    search_fields = ("name",)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "game", "status", "public", "require_confirmation")
    list_filter = ("status", "game", "public", "club")
    search_fields = ("name", "slug")
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("player", "tournament")
    list_filter = ("tournament",)


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "created_at")


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "session", "scorer_token_created_at")
    readonly_fields = ("scorer_token_hash", "scorer_token_created_at")
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "position", "entry")


class RevisionInline(admin.TabularInline):
    model = RoundRevision
    extra = 0
    can_delete = False
    fields = ("number", "actor_label", "reason", "created_at", "hash")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "status", "disputed", "updated_at")
    list_filter = ("status", "disputed")
    inlines = [RevisionInline]


@admin.register(RoundRevision)
class RoundRevisionAdmin(ReadOnlyAdmin):
    list_display = ("round", "number", "actor_label", "engine_version", "created_at")


@admin.register(ActionLog)
class ActionLogAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "actor_label", "action", "target_model", "target_id", "ip")
    list_filter = ("action",)
    search_fields = ("actor_label", "action", "target_id")


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "entry", "total", "rounds_counted", "updated_at")


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(ReadOnlyAdmin):
    list_display = ("table", "key", "response_status", "created_at")
