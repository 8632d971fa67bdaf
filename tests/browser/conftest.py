"""The fixture of the crawl modules (tests/browser/crawl.py, test_crawl_*.py)."""

from __future__ import annotations

import pytest


@pytest.fixture
def demo(transactional_db, django_user_model):
    """The demo club, a director and a member (the member is a player of the club)."""
    from tarotclub.demo import builders

    director = django_user_model.objects.create_user(
        "director", password="pw-director-1", is_staff=True
    )
    member = django_user_model.objects.create_user("member", password="pw-member-1")
    built = builders.demo_club(director)
    player = built["players"][0]
    player.user = member
    player.save(update_fields=["user"])
    return {"built": built, "director": director, "member": member}
