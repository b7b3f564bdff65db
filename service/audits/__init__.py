"""Replays and audits of stored games and of posted hand records (``service.py``), and their text form
for the terminal (``text.py``)."""
