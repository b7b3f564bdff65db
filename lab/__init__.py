"""The research tools: benchmarks, self-play matches, legality runs and model fits.

They ship beside the service and use it as any client or tool would, but the server
never imports them (an import contract in pyproject.toml); ``pitch`` loads their
commands by name (service/cli/main.py).
"""
