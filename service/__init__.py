"""The Pitch game service: configuration, the event store, use cases and the HTTP API."""
