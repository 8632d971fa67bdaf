from django.shortcuts import render

from . import selectors


def search(request):
    """/search/?q=: the players, games and tournaments a text finds (public: tournaments only)."""
    query = request.GET.get("q", "")
    found = selectors.search(query, member=request.user.is_authenticated)
    return render(
        request,
        "search/results.html",
        {"found": found, "q": found.query, "member": request.user.is_authenticated},
    )
