"""Where numba keeps regelmotor's compiled play functions: set for each of regelmotor's functions, never for
the process.

Numba's own setting for a cache folder (``NUMBA_CACHE_DIR``, read into ``numba.config``) is the whole
process's: setting it on import moved every other library's cache too, and numba reads the environment
again before each compile. Instead each compiled function of regelmotor is given a cache of its own
(``cached``), whose locator puts it in ``cache_dir()``, under the user's cache folder as the platform
names it (``platformdirs``: ``~/.cache`` or ``$XDG_CACHE_HOME`` on Linux, ``~/Library/Caches`` on macOS,
``%LOCALAPPDATA%`` on Windows). A ``NUMBA_CACHE_DIR`` the user set still wins, as in numba; where the
folder cannot be written, numba's own places are tried, as for any cached function.

This reaches into numba's caching classes (``numba.core.caching``), as the play rules reach into its
code generator: pyproject.toml bounds numba to the versions tested.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import platformdirs

F = TypeVar("F", bound=Callable[..., Any])

PACKAGE = Path(__file__).resolve().parent


def cache_dir(package: Path | None = None) -> str:
    """Where numba keeps the compiled play functions: a directory named by the sources of every module that
    compiles any. Numba checks a cached function against its own file only, so a caller in an unchanged
    file would keep calling an old compiled copy of a changed function (a solver's frames of one layout
    read by a search of another); a change to any compiled module starts a fresh directory instead."""
    package = package or PACKAGE
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        source = path.read_bytes()
        if b"@jit" in source:
            digest.update(path.relative_to(package).as_posix().encode() + b"\0" + source)
    home = platformdirs.user_cache_dir("regelmotor", appauthor=False)
    return str(Path(home) / f"numba-{digest.hexdigest()[:16]}")


@functools.cache
def folder() -> str:
    """``cache_dir()`` of the installed package, worked out once a process (when the first function is
    compiled)."""
    return cache_dir()


@functools.cache
def _cache_class() -> Any:
    """numba's per-function cache, with regelmotor's folder before numba's own places."""
    from numba.core import caching

    class Locator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
        """numba's locator for ``NUMBA_CACHE_DIR``, pointed at ``cache_dir()`` instead."""

        def __init__(self, py_func: Any, py_file: str) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = os.path.join(folder(), self.get_suitable_cache_subpath(py_file))  # type: ignore[no-untyped-call]

        def get_cache_path(self) -> str:
            return self._cache_path

    numbas = caching.CompileResultCacheImpl._locator_classes
    user = caching.UserProvidedCacheLocator

    class Impl(caching.CompileResultCacheImpl):
        _locator_classes = [user, Locator, *(c for c in numbas if c is not user)]  # noqa: RUF012 - numba's name

    class Cache(caching.FunctionCache):
        _impl_class = Impl

    return Cache


def cached(function: F) -> F:
    """``function`` (compiled by numba's ``njit`` without ``cache=True``) with its compiled code kept on disk
    in ``cache_dir()``, as ``cache=True`` would keep it in numba's folder; a plain function (numba off, or
    missing) is returned as it is."""
    try:
        from numba.core.dispatcher import Dispatcher
    except ImportError:  # pragma: no cover - numba is a dependency
        return function
    if isinstance(function, Dispatcher):
        cast(Any, function)._cache = _cache_class()(function.py_func)
    return function


def in_cache(function: Any) -> bool:
    """Whether numba's cache index for ``function`` (a dispatcher of ``cached``) holds code compiled for this
    machine from this source: read from the index file alone, nothing compiled or loaded."""
    cache = getattr(function, "_cache", None)
    index_file = getattr(cache, "_cache_file", None)
    if cache is None or index_file is None:
        return False
    try:
        index = index_file._load_index()
        if not index:
            return False
        codegen = function.targetctx.codegen()
        return any(cache._index_key(key[0], codegen) == key for key in index)
    except Exception:  # an unreadable or foreign index: as if nothing were cached
        return False


__all__ = ["cache_dir", "cached", "folder", "in_cache"]
