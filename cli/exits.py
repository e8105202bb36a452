"""The exit statuses of ``scoundrel-solve``, one home for every command.

0 done (a proven loss is a done job too), 1 output that cannot be written
(a full disk), 2 bad input or usage, 3 the search engine is not available,
130 interrupted (Ctrl-C; what a batch has written is kept).
"""
EXIT_OK, EXIT_IO, EXIT_USAGE, EXIT_ENGINE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
