"""Fool's Faith: its entry form, sheet, standings, the club's challenges and who got which."""
