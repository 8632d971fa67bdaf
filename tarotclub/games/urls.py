from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("games/", views.game_list, name="list"),
    path("games/new/", views.game_new, name="new"),
    path("t/<token:token>/", views.game_sheet, name="sheet"),
    path("t/<token:token>/live/", views.game_poll, name="poll"),
    path("t/<token:token>/qr.svg", views.game_qr, name="qr"),
    path("t/<token:token>/history/", views.game_history, name="history"),
    path("t/<token:token>/finish/", views.game_finish, name="finish"),
    path("t/<token:token>/deal/", views.deal_new, name="deal_new"),
    path("t/<token:token>/deal/preview/", views.deal_preview, name="deal_preview"),
    path("t/<token:token>/deal/undo/", views.deal_undo, name="deal_undo"),
    path("t/<token:token>/deal/<int:number>/", views.deal_detail, name="deal"),
    path("t/<token:token>/deal/<int:number>/edit/", views.deal_edit, name="deal_edit"),
]
