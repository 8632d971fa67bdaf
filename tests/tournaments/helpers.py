"""The tournament builders the tests share (they live with the demo club's data builders)."""

from tarotclub.demo.builders import make_tournament, play_round, play_table

__all__ = ["make_tournament", "play_round", "play_table"]
