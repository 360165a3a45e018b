"""``python -m scanner.cli``: the ``contrascan`` command."""

from scanner.cli import main

main()
