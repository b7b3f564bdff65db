"""Canonical JSON and the hash chain of the event log: the domain's (domain/chain.py), for the store.

The rule lives in the domain so that an offline verifier needs nothing else; the service
keeps importing it from here.
"""

from __future__ import annotations

from domain.chain import (
    GENESIS_HASH, HASHED_FIELDS, canonical_core, canonical_json, chain_hash, row_hash, row_hashes,
)

__all__ = ["GENESIS_HASH", "HASHED_FIELDS", "canonical_core", "canonical_json", "chain_hash", "row_hash", "row_hashes"]
