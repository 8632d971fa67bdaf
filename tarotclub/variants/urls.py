from django.urls import path

from . import views

app_name = "variants"
urlpatterns = [
    path("v/<str:token>/", views.game_sheet, name="sheet"),
]
