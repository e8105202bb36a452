"""Builds the Cython search core; everything else is declared in pyproject.toml.

Scoundrel's core is six extension modules in ``solver/scoundrel/`` (docs/solver.md, "Where each part lives"):
``_table``, ``_bounds``, ``_rooms``, ``_search`` and ``_shortest`` call one another through the
declarations in their ``.pxd`` files, and ``_core`` is the Python-facing API.  The belief-state
search of the real-table hint sits on top, in parts of its own (``_belief_memo``, ``_belief_enum``,
``_belief_leaves``, ``_belief_bounds``, ``_belief_search``, and ``_belief``, its API): it enumerates
rooms with ``_rooms`` and solves its perfect-information leaves with ``_search``.

The 15 modules are translated and compiled in parallel, one process a core (``build_ext -j N``
on the command line chooses otherwise): one after another they took most of a fresh clone's
75 s ``pip install .`` on a 2-core machine (issue 64; benchmarks/README.md, "Set-up time").
"""
import os
import platform
import shutil

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))

# The sources live in solver/ but install as the package scoundrel_solver, and
# Cython finds a cimported .pxd (``from ._table cimport ...`` in the module
# scoundrel_solver.scoundrel._rooms) by its package path: give it a scoundrel_solver/
# that is solver/ (a link; a copy of the declarations where links are not allowed).
PXD_ROOT = os.path.join(HERE, "build", "pxd")
alias = os.path.join(PXD_ROOT, "scoundrel_solver")
if not os.path.exists(os.path.join(alias, "__init__.py")):
    os.makedirs(PXD_ROOT, exist_ok=True)
    if os.path.islink(alias):
        os.unlink(alias)
    try:
        os.symlink(os.path.join(HERE, "solver"), alias)
    except OSError:
        os.makedirs(alias, exist_ok=True)
if not os.path.islink(alias):
    for sub in ("", "scoundrel", "bottleimp"):
        os.makedirs(os.path.join(alias, sub), exist_ok=True)
        for name in os.listdir(os.path.join(HERE, "solver", sub)):
            if name.endswith(".pxd") or name == "__init__.py":
                shutil.copy2(os.path.join(HERE, "solver", sub, name), os.path.join(alias, sub, name))

# the parts before their users (each cimports only the ones above it)
PARTS = ["_table", "_bounds", "_rooms", "_search", "_shortest", "_core",
         "_belief_memo", "_belief_enum", "_belief_leaves", "_belief_bounds", "_belief_search", "_belief"]

# The Bottle Imp's double-dummy core (docs/bottleimp-solver.md): the table, the search driver and
# the Python face; move generation (_moves.pxd) and the bounds (_bounds.pxd) are inline parts.
IMP_PARTS = ["_table", "_search", "_core"]

# The C compiler's flags: -O3 is what the benchmarks measured the cores with (keep it).
FLAGS = ["-O3"]
# The Bottle Imp's core counts coins and places by population counts (``__builtin_popcountll``): on
# x86-64 one instruction with -mpopcnt (every x86-64 CPU since 2008), a call into libgcc without it
# (11 % of a Lopaka play phase's time, perf); other machines keep the compiler's default.
IMP_FLAGS = FLAGS + (["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else [])
# Processes for Cython and compilers for the C files: the cores this process may run on.
JOBS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)

extensions = [
    Extension(f"scoundrel_solver.scoundrel.{name}", [f"solver/scoundrel/{name}.pyx"], extra_compile_args=FLAGS)
    for name in PARTS
] + [
    Extension(f"scoundrel_solver.bottleimp.{name}", [f"solver/bottleimp/{name}.pyx"], extra_compile_args=IMP_FLAGS)
    for name in IMP_PARTS
]

modules = cythonize(
    extensions,
    include_path=[PXD_ROOT],
    nthreads=JOBS,
    language_level=3,
    compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True,
                         "initializedcheck": False},
)
# The largest C file first: Scoundrel's _core is 40 % of the compile, and started late it would
# run alone at the end while the other cores wait.
modules.sort(key=lambda ext: -sum(os.path.getsize(s) for s in ext.sources if os.path.exists(s)))

setup(ext_modules=modules, options={"build_ext": {"parallel": JOBS}})
