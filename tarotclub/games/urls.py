from django.urls import path

from . import views

app_name = "games"


def moved(pattern_name: str):
    """An old path that now lives elsewhere: the request goes on to the new one (308 keeps a
    POST a POST, so a page opened before the move still saves)."""
    return views.Moved.as_view(pattern_name=pattern_name)


urlpatterns = [
    path("games/", views.game_list, name="list"),
    path("games/new/", views.game_new, name="new"),
    path("games/standings/", views.standings_index, name="standings"),
    path("games/house-rules/", views.club_house_rules, name="club_house_rules"),
    path("games/standings/<str:kind>/", views.standings, name="standings_kind"),
    path("t/<token:token>/", views.game_sheet, name="sheet"),
    path("t/<token:token>/live/", views.game_poll, name="poll"),
    path("t/<token:token>/qr.svg", views.game_qr, name="qr"),
    path("t/<token:token>/history/", views.game_history, name="history"),
    path("t/<token:token>/finish/", views.game_finish, name="finish"),
    path("t/<token:token>/house-rules/", views.game_house_rules, name="house_rules"),
    path("t/<token:token>/archive/", views.game_archive, name="archive"),
    path("t/<token:token>/restore/", views.game_restore, name="restore"),
    path("t/<token:token>/deal/", views.deal_new, name="deal_new"),
    path("t/<token:token>/deal/preview/", views.deal_preview, name="deal_preview"),
    path("t/<token:token>/deal/undo/", views.deal_undo, name="deal_undo"),
    path("t/<token:token>/deal/<int:number>/", views.deal_detail, name="deal"),
    path("t/<token:token>/deal/<int:number>/edit/", views.deal_edit, name="deal_edit"),
    path("t/<token:token>/kept/<int:pk>/accept/", views.kept_accept, name="kept_accept"),
    path("t/<token:token>/kept/<int:pk>/discard/", views.kept_discard, name="kept_discard"),
    # The other games' paths before every kind shared one set of pages (printed as QR codes).
    path("v/<token:token>/", moved("games:sheet")),
    path("v/<token:token>/live/", moved("games:poll")),
    path("v/<token:token>/history/", moved("games:history")),
    path("v/<token:token>/finish/", moved("games:finish")),
    path("v/<token:token>/r/new/", moved("games:deal_new")),
    path("v/<token:token>/r/preview/", moved("games:deal_preview")),
    path("v/<token:token>/r/undo/", moved("games:deal_undo")),
    path("v/<token:token>/r/<int:number>/edit/", moved("games:deal_edit")),
    path("variants/standings/", moved("games:standings")),
    path("variants/standings/<str:kind>/", moved("games:standings_kind")),
]
