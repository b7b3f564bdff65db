"""Reviews of finished hands: requested as jobs, computed once per deal and kept, read by anyone (``service.py``)."""
