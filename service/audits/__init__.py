"""Replays and audits of stored games and of posted hand records (``service.py``), a finished hand's
record in writing, audits of records and score sheets posted as JSON or text, and rescoring
(``records.py``), a finished hand's proof and a proof's check (``proofs.py``), and their text form
for the terminal (``text.py``)."""
