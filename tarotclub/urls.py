from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, register_converter

from tarotclub.core import views as core_views
from tarotclub.core.converters import TokenConverter
from tarotclub.games import kinds
from tarotclub.games import views as games_views

register_converter(TokenConverter, "token")

urlpatterns = [
    path("", core_views.home, name="home"),
    path("history/", core_views.history, name="history"),
    path("backup/", core_views.backup, name="backup"),
    path("manifest.webmanifest", core_views.manifest, name="manifest"),
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("sw.js", core_views.service_worker, name="service_worker"),
    path("csrf/", core_views.csrf_token, name="csrf_token"),
    path("offline/<str:language>/<str:kind>.js", games_views.offline_text, name="offline_text"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("players/", include("tarotclub.players.urls")),
    path("ratings/", include("tarotclub.ratings.urls")),
    path("search/", include("tarotclub.search.urls")),
    path("", include("tarotclub.games.urls")),
    # Each game kind's own pages, under its identifier's namespace.
    *(path("", include((k.urls, k.identifier))) for k in kinds.all_kinds() if k.urls),
    path("", include("tarotclub.tournaments.urls")),
    path("", include("tarotclub.seasons.urls")),
    path("", include("tarotclub.matches.urls")),
    path("", include("tarotclub.reports.urls")),
    path("admin/", admin.site.urls),
]

handler400 = "tarotclub.core.views.bad_request"
handler403 = "tarotclub.core.views.permission_denied"
handler404 = "tarotclub.core.views.page_not_found"
handler500 = "tarotclub.core.views.server_error"
