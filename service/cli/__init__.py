"""The ``pitch`` command (docs/commands.md): ``main.py`` is its group, ``audit.py`` the replay and audit
commands, ``errors.py`` the guard that turns an operator's mistake into one line, ``lazy.py`` the
research commands loaded by name."""
