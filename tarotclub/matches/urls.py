from django.urls import path

from . import views

app_name = "matches"
urlpatterns = [
    path("matches/", views.match_list, name="list"),
    path("matches/new/", views.match_new, name="new"),
    path("matches/<int:pk>/", views.match_results, name="results"),
    path("matches/<int:pk>/edit/", views.match_edit, name="edit"),
    path("matches/<int:pk>/quarter/<int:number>/", views.match_quarter, name="quarter"),
    path("matches/<int:pk>/results.pdf", views.match_pdf, name="pdf"),
    path("matches/<int:pk>/results.<str:fmt>", views.match_export, name="export"),
]
