"""``python -m rulings`` runs the CLI."""

from .cli import main

main()
