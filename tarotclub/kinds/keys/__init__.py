"""Keys of the Kingdom: its entry form, sheet, standings, templates and styles."""
