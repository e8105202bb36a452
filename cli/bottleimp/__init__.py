"""The Bottle Imp's commands (``scoundrel-solve imp ...``), over :mod:`scoundrel_solver.bottleimp`."""
