"""Cuckoo: its entry form, sheet, standings, templates and styles."""
