"""The crawl's own arithmetic: URL shapes, file names, element names (tests/browser/crawl.py;
the crawl itself is test_crawl_<role>_<language>.py, one module each so that pytest-xdist
spreads them)."""

from __future__ import annotations

from .crawl import _element, canonical, path_shape, shape, slug


def test_the_url_shapes_generalise_ids_and_tokens_but_keep_words():
    assert path_shape("/t/rmlz0RcjMPoxOnWjSF9g0tBq/deal/12/") == "/t/<token>/deal/<n>/"
    assert path_shape("/tournaments/7/round/2/sheets.pdf") == (
        "/tournaments/<n>/round/<n>/sheets.pdf"
    )
    assert path_shape("/t/tFBsYYrkfsBD-xibF_hALQ/") == "/t/<token>/"  # letters only
    assert path_shape("/tournaments/7/standings.csv") == "/tournaments/<n>/standings.csv"
    assert path_shape("/games/standings/foolsfaith/") == "/games/standings/foolsfaith/"
    assert slug("/t/Ab3dEf9hIjK/deal/?x=1", {"Ab3dEf9hIjK": "tarot-4"}) == "t_tarot-4_deal_x_1"
    assert slug("/") == "home"
    assert _element('a.nav "Games": 40x20') == 'a.nav "Games"'
    assert _element('div.table-wrap "X": content 560px in 346px') == 'div.table-wrap "X"'
    assert shape("/games/?sort=-date&page=2") == ("/games/", ("page", "sort"))
    assert canonical("/games/?sort=a&page=2#x") == "/games/?page=2&sort=a"
