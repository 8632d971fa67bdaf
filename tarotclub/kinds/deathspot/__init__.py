"""Death's Pot: its entry form, sheet, standings, templates and styles."""
