"""The HTTP service and the web games, Scoundrel's and the Bottle Imp's (``scoundrel-solve serve``;
docs/service.md).

It is a second front end beside the command line: every answer is the one the
CLI's own command gives with ``--json``, built by the same library function
(solver/scoundrel/answers.py) in a bounded pool of solver processes, so the two
cannot drift apart; no part of it imports the command line.  ``app.py`` is the
generic service, each game brings its endpoints (``scoundrel.py``, ``bottleimp.py``) and
the jobs its solver processes run (``scoundrel_jobs.py``, ``bottleimp_jobs.py``).  Needs the optional extra
``scoundrel-solver[web]`` (Starlette and uvicorn).
"""
