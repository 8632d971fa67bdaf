from django.urls import path

from . import views

app_name = "variants"
urlpatterns = [
    path("v/<token:token>/", views.game_sheet, name="sheet"),
    path("v/<token:token>/live/", views.game_poll, name="poll"),
    path("v/<token:token>/history/", views.game_history, name="history"),
    path("v/<token:token>/finish/", views.game_finish, name="finish"),
    path("v/<token:token>/challenges/", views.challenges_give, name="give"),
    path("v/<token:token>/r/new/", views.record_new, name="record_new"),
    path("v/<token:token>/r/preview/", views.record_preview, name="record_preview"),
    path("v/<token:token>/r/undo/", views.record_undo, name="record_undo"),
    path("v/<token:token>/r/<int:number>/edit/", views.record_edit, name="record_edit"),
    path("variants/challenges/", views.challenge_list, name="challenges"),
    path("variants/challenges/<int:pk>/", views.challenge_edit, name="challenge_edit"),
    path("variants/standings/", views.standings_index, name="standings"),
    path("variants/standings/<str:kind>/", views.standings, name="standings_kind"),
]
