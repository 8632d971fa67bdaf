from django.urls import path

from . import views

app_name = "reports"
urlpatterns = [
    path("export/", views.club_export, name="club_export"),
    path(
        "tournaments/<int:pk>/standings.pdf",
        views.pdf,
        {"printout": "standings"},
        name="standings_pdf",
    ),
    path(
        "tournaments/<int:pk>/standings.<str:fmt>",
        views.standings_export,
        name="standings_export",
    ),
    *(
        path(
            f"tournaments/<int:pk>/duplicate/print/{stem}.pdf",
            views.pdf,
            {"printout": f"duplicate_{printout}"},
            name=f"duplicate_{printout}_pdf",
        )
        for stem, printout in (
            ("guide-cards", "guide_cards"),
            ("diagrams", "diagrams"),
            ("slips", "slips"),
            ("grading", "grading"),
            ("rankings", "rankings"),
            ("records", "records"),
        )
    ),
    path(
        "tournaments/<int:pk>/duplicate/<str:what>.<str:fmt>",
        views.duplicate_export,
        name="duplicate_export",
    ),
    path("tournaments/<int:pk>/deals/", views.deals_page, name="deals"),
    path("tournaments/<int:pk>/deals.pdf", views.pdf, {"printout": "deals"}, name="deals_pdf"),
    path("tournaments/<int:pk>/deals.<str:fmt>", views.deals_export, name="deals_export"),
    path(
        "tournaments/<int:pk>/round/<int:round_number>/sheets.pdf",
        views.pdf,
        {"printout": "table_sheets"},
        name="round_sheets_pdf",
    ),
    path(
        "tournaments/<int:pk>/round/<int:round_number>/seating.pdf",
        views.pdf,
        {"printout": "seating"},
        name="seating_pdf",
    ),
    path(
        "tournaments/<int:pk>/cards.pdf",
        views.pdf,
        {"printout": "position_cards"},
        name="position_cards_pdf",
    ),
    path("tournaments/<int:pk>/players/", views.players_page, name="players"),
    path(
        "tournaments/<int:pk>/player/<int:player_pk>.pdf",
        views.pdf,
        {"printout": "player_sheet"},
        name="player_pdf",
    ),
    path("t/<token:token>/scoresheet/", views.score_sheet, name="score_sheet"),
    path("t/<token:token>/sheet.pdf", views.pdf, {"printout": "game_sheet"}, name="game_sheet_pdf"),
    path("t/<token:token>/deals.<str:fmt>", views.game_deals_export, name="game_deals_export"),
]
