from django.contrib import admin

from .models import ApiToken, ChipDenomination, Entry, Event, Level, Player, Tournament


class LevelInline(admin.TabularInline):
    model = Level
    extra = 0


class ChipInline(admin.TabularInline):
    model = ChipDenomination
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "status", "seats_per_table", "starting_stack", "created_at")
    search_fields = ("name", "slug")
    inlines = [ChipInline, LevelInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    search_fields = ("name", "nickname")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "player", "status", "finished", "prize")
    list_filter = ("status",)
    search_fields = ("player__name",)
    list_select_related = ("tournament", "player")

    @admin.display(description="place")
    def finished(self, e: Entry) -> str:
        """The place as it stands (RULES 7.1: the stored one plus the tournament's lag)."""
        place, place_to = e.places_now(e.tournament.place_lag)
        if place is None:
            return "-"
        return str(place) if place_to == place else f"{place}–{place_to}"


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("id", "tournament", "kind", "actor", "created_at", "undone")
    list_filter = ("kind",)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "prefix", "created_at", "last_used", "revoked")
    readonly_fields = ("key_hash", "prefix")


admin.site.register(Level)
admin.site.register(ChipDenomination)
