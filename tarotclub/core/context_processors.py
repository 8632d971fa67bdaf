from django.conf import settings


def club(request):
    """The club's name for every page header."""
    return {"club_name": settings.CLUB_NAME}
