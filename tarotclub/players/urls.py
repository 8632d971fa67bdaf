from django.urls import path

from . import views

app_name = "players"
urlpatterns = [
    path("", views.player_list, name="list"),
    path("new/", views.player_new, name="new"),
    path("<int:pk>/", views.player_detail, name="detail"),
    path("<int:pk>/edit/", views.player_edit, name="edit"),
    path("<int:pk>/versus/", views.player_versus, name="versus"),
]
