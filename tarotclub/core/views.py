import tempfile

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS
from django.http import FileResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from . import backup as club_backup
from .decorators import director_required
from .models import log_action


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


@never_cache
@director_required
@require_http_methods(["GET", "POST"])
def backup(request):
    """Directors download a backup of the whole club (GET: the page; POST: the file)."""
    if request.method == "GET":
        return render(request, "core/backup.html")
    out = tempfile.TemporaryFile()  # noqa: SIM115 - FileResponse closes it once sent
    club_backup.write_backup(out, using=DEFAULT_DB_ALIAS)
    out.seek(0)
    # who took the club's data home (accounts, every table's link) stays in the history
    account = get_user_model()._default_manager.get(pk=request.user.pk)
    log_action(account, club_backup.BACKUP_DOWNLOADED, user=account)
    response = FileResponse(
        out,
        as_attachment=True,
        filename=club_backup.backup_file_name(),
        content_type="application/gzip",
    )
    response["Cache-Control"] = "no-store, private"
    return response
