from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from tarotclub.core.forms import configure_table

from . import selectors, services
from .forms import LeaderboardForm
from .tables import LeaderboardTable

PAGE = 100


@login_required
def leaderboard(request):
    """The club's players by French Tarot rating, with a period and a minimum of games."""
    services.ratings_refresh()  # derived data: brought up to date with the games first
    given = any(k in request.GET for k in ("from", "to", "min"))
    form = LeaderboardForm(request.GET if given else None)
    filters = form.filters()
    lines = selectors.leaderboard(**filters)
    table = LeaderboardTable(lines, link_players=request.user.is_authenticated)
    configure_table(request, table, per_page=PAGE)
    context = {
        "table": table,
        "form": form,
        "period": bool(filters.get("date_from") or filters.get("date_to")),
        "min_games": filters["min_games"],
    }
    status = 400 if form.is_bound and not form.is_valid() else 200
    return render(request, "ratings/leaderboard.html", context, status=status)
