from django.urls import path
from django.views.generic import RedirectView

from . import views

urlpatterns = [
    path("games/foolsfaith/challenges/", views.challenge_list, name="challenges"),
    path("games/foolsfaith/challenges/<int:pk>/", views.challenge_edit, name="challenge_edit"),
    path("t/<token:token>/challenges/", views.challenges_give, name="give"),
    # Paths printed or bookmarked before the challenges moved here.
    path(
        "variants/challenges/",
        RedirectView.as_view(pattern_name="foolsfaith:challenges", permanent=True),
    ),
    path(
        "variants/challenges/<int:pk>/",
        RedirectView.as_view(pattern_name="foolsfaith:challenge_edit", permanent=True),
    ),
    path(
        "v/<token:token>/challenges/",
        RedirectView.as_view(pattern_name="foolsfaith:give", permanent=True),
    ),
]
