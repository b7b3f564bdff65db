"""Celery workers: computer players' moves, hints and bid analyses, off the request path.

Tasks are thin calls into service's use cases and domain's computer players; service
reaches them only through Celery task names.
"""
