from django.http import Http404


def game_sheet(request, token: str):
    raise Http404  # replaced by the variants app's real sheet
