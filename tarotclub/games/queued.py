"""The answer to an entry a phone sends from its queue (``static/js/offline.js``).

A phone that lost the network keeps each entry it makes (a deal, a round...) in IndexedDB with
an id it made itself (a UUID, the form's hidden ``client_id``) and the number of the entry it
was making (the hidden ``number``). When the network returns, it POSTs each entry, in order, to
the entry page it came from (``games:deal_new``) with ``Accept: application/json``. The page
then answers with one JSON object instead of a page or a redirect, always with status 200 once
the request reached the server (a 4xx or 5xx, or no answer, is a send that did not happen: the
entry stays queued and is sent again later; a 403 is a CSRF token the site no longer accepts
after a long time offline: the phone asks ``/csrf/`` for a fresh one (``core.views.csrf_token``)
and sends the entry once more; refused again, it keeps the entry and tells the player what to
do, and sends it again only when the player taps "Send again"):

``{"status": "saved", "number": 3, "message": "Deal 3 saved."}``
    Stored now as entry ``number`` (its score is the server's: the phone reads the sheet).
``{"status": "duplicate", "number": 3, "message": ...}``
    This id was saved before (a retry, a double tap): nothing was written; ``number`` is the
    entry saved then. The phone drops it from its queue as saved.
``{"status": "conflict", "number": 3, "next": 4, "message": ..., "theirs": {"number": 3,
"text": "..."} or null}``
    Entry ``number`` was made meanwhile by another phone (another id): nothing was written.
    ``theirs`` is that entry in words (null when the phone was ahead of the sheet, after an
    undo); ``next`` is the number it would get now. The phone shows both versions (its own from
    its queue) and lets the player send it again as entry ``next`` or discard it.
``{"status": "locked", "message": ..., "kept": true}``
    The sheet no longer takes entries (confirmed by the director, finished, its round over,
    all its deals in...): ``message`` says why, in the player's language. The entry is kept
    on the server for the game's owner or the director (`models.RefusedEntry`), who add it as
    the next entry or discard it. The phone drops it from its queue and says so.
``{"status": "invalid", "message": ..., "errors": {"field": ["message", ...]}}``
    The form refuses the entry (the rules, a missing field): nothing was written. The phone
    keeps it, shows why, and lets the player correct it (the entry screen opens with its
    values and these messages by their fields, and sends it in its place, with its id) or
    discard it.
``{"status": "gone", "message": ...}``
    The game no longer exists (a tournament round redrawn): nothing was written.

Every message is translated in the language of the request (the phone's page language).
"""

from __future__ import annotations

from django.http import JsonResponse

SAVED = "saved"
DUPLICATE = "duplicate"
CONFLICT = "conflict"
LOCKED = "locked"
INVALID = "invalid"
GONE = "gone"
STATUSES = (SAVED, DUPLICATE, CONFLICT, LOCKED, INVALID, GONE)


def is_queued(request) -> bool:
    """A send from a phone's queue (it asks for JSON), not a plain form's POST."""
    return request.method == "POST" and "application/json" in request.headers.get("Accept", "")


def answer(status: str, message, **fields) -> JsonResponse:
    """One answer of the format above."""
    if status not in STATUSES:
        raise ValueError(f"unknown queued answer {status!r}")
    return JsonResponse({"status": status, "message": str(message), **fields})


def form_errors(form) -> dict[str, list[str]]:
    """A form's errors as the ``invalid`` answer carries them (``__all__`` for the form's)."""
    return {name: [str(m) for m in messages] for name, messages in form.errors.items()}
