from django.shortcuts import render


def home(request):
    """What the site does, and the ways in."""
    return render(request, "core/home.html")


def bad_request(request, exception=None):
    return render(request, "core/error.html", {"status": 400}, status=400)


def permission_denied(request, exception=None):
    return render(request, "core/error.html", {"status": 403}, status=403)


def page_not_found(request, exception=None):
    return render(request, "core/error.html", {"status": 404}, status=404)


def server_error(request):
    return render(request, "core/error.html", {"status": 500}, status=500)
