"""The HTTP service and the web game (``scoundrel-solve serve``; docs/service.md).

It is a second front end beside the command line: every answer is the one the
CLI's own command gives with ``--json`` (the same code runs, in a bounded pool
of solver processes), so the two cannot drift apart.  Needs the optional extra
``scoundrel-solver[web]`` (Starlette and uvicorn).
"""
