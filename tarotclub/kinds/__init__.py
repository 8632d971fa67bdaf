"""The game kinds, one package each (a Django app) that registers its `games.kinds.Kind`."""
