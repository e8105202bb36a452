"""Scoundrel's commands (``scoundrel-solve``, ``hint``, ``play``, ...), over :mod:`scoundrel_solver.scoundrel`."""
