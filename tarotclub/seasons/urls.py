from django.urls import path

from tarotclub.reports import views as reports

from . import views

app_name = "seasons"
urlpatterns = [
    path("seasons/", views.season_list, name="list"),
    path("seasons/new/", views.season_new, name="new"),
    path("seasons/<int:pk>/", views.season_standings, name="standings"),
    path("seasons/<int:pk>/edit/", views.season_edit, name="edit"),
    path("seasons/<int:pk>/delete/", views.season_delete, name="delete"),
    path("seasons/<int:pk>/projector/", views.season_projector, name="projector"),
    path("seasons/<int:pk>/projector/screen/", views.projector_screen, name="projector_screen"),
    path(
        "seasons/<int:pk>/standings.pdf",
        reports.pdf,
        {"printout": "season_standings"},
        name="pdf",
    ),
    path("seasons/<int:pk>/standings.<str:fmt>", views.season_export, name="export"),
]
