"""Command-line interface of scoundrel-solver: ``scoundrel-solve`` (see scoundrel_solver.cli.main)."""
