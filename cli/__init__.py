"""Command-line interface of scoundrel-solver: ``scoundrel-solve`` (see cli.main)."""
