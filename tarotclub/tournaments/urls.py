from django.urls import path

from . import duplicate_views, quadrette_views, triplette_views, views

app_name = "tournaments"
urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/new/", views.tournament_new, name="new"),
    path("tournaments/<int:pk>/", views.tournament_standings, name="standings"),
    path("tournaments/<int:pk>/projector/", views.tournament_projector, name="projector"),
    path("tournaments/<int:pk>/projector/screen/", views.projector_screen, name="projector_screen"),
    path("tournaments/<int:pk>/where/", views.tournament_where, name="where"),
    path("tournaments/<int:pk>/where/<int:player_pk>/", views.position_card, name="position_card"),
    path("tournaments/<int:pk>/manage/", views.tournament_manage, name="manage"),
    path("tournaments/<int:pk>/manage/tables/", views.manage_tables, name="manage_tables"),
    path("tournaments/<int:pk>/register/", views.entries_bulk, name="bulk"),
    path("tournaments/<int:pk>/start/", views.tournament_start, name="start"),
    path("tournaments/<int:pk>/next/", views.tournament_next_round, name="next"),
    path("tournaments/<int:pk>/reopen/", views.tournament_reopen, name="reopen"),
    path("tournaments/<int:pk>/redraw/", views.round_redraw, name="redraw"),
    path("tournaments/<int:pk>/ranking/", views.tournament_ranking, name="ranking"),
    path("tournaments/<int:pk>/house-rules/", views.tournament_house_rules, name="house_rules"),
    path("tournaments/<int:pk>/withdraw/<int:entry_pk>/", views.entry_withdraw, name="withdraw"),
    path("tournaments/<int:pk>/unlock/<int:table_pk>/", views.table_unlock, name="unlock"),
    path("t/<token:token>/confirm/", views.table_confirm, name="confirm"),
    path("t/<token:token>/board/<int:board>/", duplicate_views.slip, name="slip"),
    path("tournaments/<int:pk>/duplicate/", duplicate_views.boards, name="duplicate_boards"),
    path("tournaments/<int:pk>/duplicate/grading/", duplicate_views.grading, name="grading"),
    path(
        "tournaments/<int:pk>/duplicate/substitute/<int:entry_pk>/",
        duplicate_views.substitute,
        name="substitute",
    ),
    path(
        "tournaments/<int:pk>/duplicate/board/<int:board>/dealer/",
        duplicate_views.board_dealer,
        name="board_dealer",
    ),
    path(
        "tournaments/<int:pk>/duplicate/record/<str:seat>/",
        duplicate_views.record,
        name="record",
    ),
    path("tournaments/<int:pk>/triplettes/", triplette_views.teams, name="triplette_teams"),
    path(
        "tournaments/<int:pk>/triplettes/boards/",
        triplette_views.boards,
        name="triplette_boards",
    ),
    path(
        "tournaments/<int:pk>/triplettes/grading/",
        triplette_views.grading,
        name="triplette_grading",
    ),
    path(
        "tournaments/<int:pk>/triplettes/record/<str:seat>/",
        triplette_views.record,
        name="triplette_record",
    ),
    path(
        "tournaments/<int:pk>/triplettes/cards.pdf",
        triplette_views.cards_pdf,
        name="triplette_cards_pdf",
    ),
    path(
        "tournaments/<int:pk>/triplettes/results.pdf",
        triplette_views.results_pdf,
        name="triplette_results_pdf",
    ),
    path(
        "tournaments/<int:pk>/triplettes/rankings.<str:fmt>",
        triplette_views.export,
        name="triplette_export",
    ),
    path("tournaments/<int:pk>/quadrettes/", quadrette_views.teams, name="quadrette_teams"),
    path(
        "tournaments/<int:pk>/quadrettes/boards/",
        quadrette_views.boards,
        name="quadrette_boards",
    ),
    path(
        "tournaments/<int:pk>/quadrettes/results.pdf",
        quadrette_views.results_pdf,
        name="quadrette_results_pdf",
    ),
    path(
        "tournaments/<int:pk>/quadrettes/ranking.<str:fmt>",
        quadrette_views.export,
        name="quadrette_export",
    ),
]
