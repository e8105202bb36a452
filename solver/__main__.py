"""``python -m scoundrel_solver``: the same as the ``scoundrel-solve`` command."""
from .cli.main import main

if __name__ == "__main__":
    main()
