"""French Tarot, 3 to 5 players, by the federation's rules: deals, the sheet, standings."""
