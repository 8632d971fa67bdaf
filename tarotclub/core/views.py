import functools
import hashlib
import json
import re
import tempfile

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.paginator import Paginator
from django.db import DEFAULT_DB_ALIAS
from django.http import FileResponse, HttpResponseRedirect, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from . import backup as club_backup
from .decorators import director_required
from .history import lines
from .models import ACTIONS, LogEntry, log_action

HISTORY_PER_PAGE = 50
ERR_HISTORY_TOURNAMENT = _("This is not a tournament number: nothing is shown.")
ERR_HISTORY_PLAYER = _("This is not a player number: nothing is shown.")
ERR_HISTORY_ACTION = _("There is no such action in the history: nothing is shown.")
#: The objects the history can be narrowed to: GET parameter → (app label, model, message).
#: Looked up by name, so that core imports no app.
HISTORY_SUBJECTS = {
    "tournament": ("tournaments", "tournament", ERR_HISTORY_TOURNAMENT),
    "player": ("players", "player", ERR_HISTORY_PLAYER),
}
_PK = re.compile(r"[0-9]{1,19}")
_PK_MAX = 2**63 - 1


def home(request):
    """What the site does, and the ways in."""
    return render(request, "core/home.html")


#: A table's sheet, the only other start page a manifest names (a share link's path).
_TABLE_START = re.compile(r"/t/[A-Za-z0-9_-]{1,40}/")

#: The club's colours, as in static/css/site.css (--accent, --paper).
THEME_COLOR = "#7a1f2b"
BACKGROUND_COLOR = "#fbf8f1"


def manifest(request):
    """The web app manifest, so that "add to home screen" gives the club's icon and name.

    A view rather than a static file: the icons' URLs come from the static storage (hashed
    names in production) and the file gets its own type, application/manifest+json.
    """
    name = settings.CLUB_NAME
    # a table's pages name their sheet (?start=/t/<token>/): the phone's home screen then
    # opens that table, from the service worker's cache when there is no connection
    start = request.GET.get("start", "")
    data = {
        "name": name,
        "short_name": name if len(name) <= 12 else name[:12].rstrip(),
        "lang": request.LANGUAGE_CODE,
        "id": "/",
        "start_url": start if _TABLE_START.fullmatch(start) else "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    response["Cache-Control"] = "public, max-age=3600"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


#: What the service worker keeps for a table's pages with no connection (static paths).
APP_SHELL = (
    "css/site.css",
    "js/htmx.min.js",
    "js/site.js",
    "js/steppers.js",
    "js/offline-queue.js",
    "js/offline.js",
    "js/offline-app.js",
    "js/tarot-score.js",
    "js/tarot-preview.js",
    "js/record-rules.js",
    "js/record-preview.js",
    "js/foolsfaith-score.js",
    "js/keys-score.js",
    "js/deathspot-score.js",
    "js/cuckoo-score.js",
    "games/games.css",
    "icons/favicon.svg",
    "icons/favicon-32.png",
    "icons/icon-192.png",
)


@functools.cache
def _shell_version(urls: tuple[str, ...]) -> str:
    """A digest of the shell's files (their URLs and contents, once per process): a new
    version of any of them makes a new worker, which the browser installs in place."""
    digest = hashlib.sha256()
    for path, url in zip(APP_SHELL, urls, strict=True):
        digest.update(url.encode())
        found = finders.find(path)
        if found:
            with open(found, "rb") as f:
                digest.update(f.read())
    return digest.hexdigest()[:12]


def service_worker(request):
    """The service worker, at the site's root so its scope is every page (`templates/core/
    sw.js`). Never cached by the browser's HTTP cache (it checks for a new one each time)."""
    urls = tuple(static(path) for path in APP_SHELL)
    context = {
        "version": _shell_version(urls),
        "shell": json.dumps([*urls, reverse("manifest")]),
        # the storage's prefix, not static(""): a manifest storage (production) has no entry
        # for "" and refused it, so /sw.js failed with a 500 under `make serve`
        "static_url": json.dumps(staticfiles_storage.base_url),
        "queue_url": json.dumps(static("js/offline-queue.js")),
    }
    response = render(request, "core/sw.js", context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache, max-age=0"
    response["Service-Worker-Allowed"] = "/"
    return response


@never_cache
@require_http_methods(["GET"])
def csrf_token(request):
    """A fresh CSRF token for a phone's queue (`static/js/offline-app.js`): an entry kept
    offline carries the token of the page it was made on, which the site may no longer accept
    when it is sent (its cookie expired or was renewed by a login meanwhile). The answer sets
    the cookie the token goes with; like every page's token, only this site's pages can read it.
    """
    return JsonResponse({"token": get_token(request)})


def favicon(request):
    """/favicon.ico, which some browsers ask for whatever the page says: the PNG icon."""
    response = HttpResponseRedirect(static("icons/favicon-32.png"))
    response["Cache-Control"] = "public, max-age=86400"
    return response


def bad_request(request, exception=None):
    return render(request, "core/error.html", {"status": 400}, status=400)


def permission_denied(request, exception=None):
    return render(request, "core/error.html", {"status": 403}, status=403)


def csrf_failure(request, reason=""):
    """A form sent without a valid CSRF token (settings.CSRF_FAILURE_VIEW): the page open too
    long, a sign-in or out in another tab since, cookies blocked. The site's page in the user's
    language with the way out, not Django's bare one (which the Content-Security-Policy leaves
    unstyled and which offers no way back). The view it was sent to never ran: nothing saved.
    Rendering the page sets a fresh CSRF cookie, so reloading the form and sending it works."""
    return render(request, "core/error.html", {"status": 403, "csrf": True}, status=403)


def page_not_found(request, exception=None):
    return render(request, "core/error.html", {"status": 404}, status=404)


def server_error(request):
    return render(request, "core/error.html", {"status": 500}, status=500)


def _pk(value: str) -> int | None:
    """A database id typed in a URL: ASCII digits only, within the column's range."""
    if not _PK.fullmatch(value):
        return None
    pk = int(value)
    return pk if pk <= _PK_MAX else None


@director_required
def history(request):
    """Every change outside a game's deals, newest first: who, when, what, before → after.

    ?tournament=<pk>, ?player=<pk>, ?action=<code> narrow it (all of them together); a value
    that cannot be one gives a message and an empty list.
    """
    entries = LogEntry.objects.select_related("user", "content_type")
    errors, narrowed = [], []
    for param, (app_label, model, error) in HISTORY_SUBJECTS.items():
        raw = request.GET.get(param, "")
        if not raw:
            continue
        pk = _pk(raw)
        try:
            content_type = ContentType.objects.get_by_natural_key(app_label, model)
        except ContentType.DoesNotExist:
            content_type = None
        if pk is None or content_type is None:
            errors.append(error)
            continue
        entries = entries.filter(content_type=content_type, object_id=pk)
        subject = content_type.model_class()._base_manager.filter(pk=pk).first()
        narrowed.append(str(subject) if subject is not None else f"#{pk}")
    code = request.GET.get("action", "")
    if code:
        if code in ACTIONS:
            entries = entries.filter(action=code)
            narrowed.append(str(ACTIONS[code]))
        else:
            errors.append(ERR_HISTORY_ACTION)
    if errors:
        entries = entries.none()
    page = Paginator(entries, HISTORY_PER_PAGE).get_page(request.GET.get("page"))
    actions = sorted(((c, str(label)) for c, label in ACTIONS.items()), key=lambda x: x[1])
    context = {
        "page": page,
        "lines": lines(page.object_list),
        "errors": errors,
        "narrowed": narrowed,
        "actions": actions,
        "action": code if code in ACTIONS else "",
        "filters": {k: request.GET[k] for k in ("tournament", "player") if request.GET.get(k)},
    }
    return render(request, "core/history.html", context, status=400 if errors else 200)


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
