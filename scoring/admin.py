"""The Django admin, for superusers only (``gupai_site.admin``) and read-only: it is a window on
the data, never a way around the services and their audit rows."""

from django.contrib import admin

from scoring.models import (
    ActionLog,
    Audit,
    AuditChunk,
    AuditFinding,
    Club,
    Entry,
    IdempotencyKey,
    PaperSheetJob,
    Player,
    Round,
    RoundRevision,
    Seat,
    Session,
    Standing,
    Table,
    Tournament,
    TournamentImport,
    TournamentReferee,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    list_display = ("name", "slug", "created_at")


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("name", "club")
    exclude = ("code_hash",)
    list_filter = ("club",)
    search_fields = ("name",)


class EntryInline(ReadOnlyInline):
    model = Entry
    exclude = ("legacy_code_hash",)   # a hash of a short code: nothing to read, better not shown


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "game", "status", "public", "require_confirmation")
    list_filter = ("status", "game", "public", "club")
    search_fields = ("name", "slug")
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("player", "tournament")
    list_filter = ("tournament",)
    exclude = ("legacy_code_hash",)


@admin.register(Session)
class SessionAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "status", "clock_ends_at", "created_at")


class SeatInline(ReadOnlyInline):
    model = Seat


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("name", "session", "scorer_token_created_at")
    exclude = ("scorer_token_hash",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "position", "entry")


class RevisionInline(ReadOnlyInline):
    model = RoundRevision
    fields = ("number", "actor_label", "reason", "created_at", "hash")


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


@admin.register(Audit)
class AuditAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "status", "done", "total", "chunks_done", "chunk_count", "created_at", "finished_at")
    list_filter = ("status",)


@admin.register(AuditChunk)
class AuditChunkAdmin(ReadOnlyAdmin):
    list_display = ("audit", "number", "first_round", "last_round", "rounds", "done", "finished_at")


@admin.register(AuditFinding)
class AuditFindingAdmin(ReadOnlyAdmin):
    list_display = ("audit", "kind", "table", "number", "revision", "agrees", "detail")
    list_filter = ("kind",)


@admin.register(TournamentImport)
class TournamentImportAdmin(ReadOnlyAdmin):
    list_display = ("club", "file_name", "status", "checked", "total", "tournament", "requested_label", "created_at")
    list_filter = ("status",)
    exclude = ("document",)   # the whole uploaded document, while it waits: too big to show


@admin.register(PaperSheetJob)
class PaperSheetJobAdmin(ReadOnlyAdmin):
    list_display = ("session", "languages", "status", "reason", "done", "total", "requested_label", "created_at")
    list_filter = ("status",)
    exclude = ("pdf",)   # it carries the tables' scorer links: a secret, never shown


@admin.register(TournamentReferee)
class TournamentRefereeAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "user", "added_by", "created_at")
