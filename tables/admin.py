from django.contrib import admin

from .models import Move, Seat, Table


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("tournament", "number", "seats", "status", "button_seat", "break_rank")
    list_filter = ("status",)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("tournament", "table", "number", "entry", "waits_for_button")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = (
        "tournament",
        "entry",
        "from_table",
        "from_seat",
        "to_table",
        "to_seat",
        "reason",
        "announced",
    )
    list_filter = ("reason",)
