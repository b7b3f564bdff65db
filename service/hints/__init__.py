"""Hints and bid analyses: requested as jobs and read back by their seat (``service.py``)."""
