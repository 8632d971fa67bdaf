from django.urls import path

from . import views

app_name = "reports"
urlpatterns = [
    path("tournaments/<int:pk>/standings.pdf", views.standings_pdf, name="standings_pdf"),
    path(
        "tournaments/<int:pk>/standings.<str:fmt>",
        views.standings_export,
        name="standings_export",
    ),
    path("tournaments/<int:pk>/deals/", views.deals_page, name="deals"),
    path("tournaments/<int:pk>/deals.<str:fmt>", views.deals_export, name="deals_export"),
    path(
        "tournaments/<int:pk>/round/<int:round_number>/sheets.pdf",
        views.round_sheets_pdf,
        name="round_sheets_pdf",
    ),
    path(
        "tournaments/<int:pk>/round/<int:round_number>/seating.pdf",
        views.seating_pdf,
        name="seating_pdf",
    ),
    path("tournaments/<int:pk>/players/", views.players_page, name="players"),
    path("tournaments/<int:pk>/player/<int:player_pk>.pdf", views.player_pdf, name="player_pdf"),
    path("t/<token:token>/sheet.pdf", views.game_sheet_pdf, name="game_sheet_pdf"),
    path("t/<token:token>/deals.<str:fmt>", views.game_deals_export, name="game_deals_export"),
]
