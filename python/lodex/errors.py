"""lodex exceptions. Every failure in lodex raises a subclass of :class:`Error`; the subclasses
are also the matching built-in exceptions (``ValueError``, ``OSError``, ...) so ordinary
``except`` clauses keep working."""


class Error(Exception):
    """Base class of every lodex error."""


class InvalidArgumentError(Error, ValueError):
    """The caller passed something wrong (a bad field, box, step, partition, ...)."""


class NotFoundError(Error, LookupError):
    """A dataset, group, step or field that does not exist."""


class AlreadyExistsError(Error, FileExistsError):
    """Creating something that is already there (a dataset, a committed step)."""


class IOFailure(Error, OSError):
    """The operating system refused an operation (permissions, a full disk, ...)."""


class FormatError(Error, ValueError):
    """A file is malformed, truncated or fails its checksum."""


class MPIError(Error, RuntimeError):
    """An MPI call failed."""


class UnsupportedError(Error, NotImplementedError):
    """A valid request this version of lodex does not implement."""


class MissingDependencyError(UnsupportedError, ImportError):
    """An optional dependency (an extra: lodex[plot], lodex[h5part], lodex[pandas], lodex[xarray])
    is not installed; the message names what to install."""


def require(module: str, feature: str, extra: str):
    """Imports `module` for `feature`, or raises MissingDependencyError in one line."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise MissingDependencyError(f"{feature} needs {module}: pip install 'lodex[{extra}]' (or {module}); "
                                     f"importing it failed: {e}") from None


class InternalError(Error, RuntimeError):
    """A broken invariant inside lodex: please report it."""


# Codes match lodex::ErrorCode in src/core/error.hpp.
BY_CODE = {
    0: InternalError,
    1: InvalidArgumentError,
    2: NotFoundError,
    3: AlreadyExistsError,
    4: IOFailure,
    5: FormatError,
    6: MPIError,
    7: UnsupportedError,
    8: InternalError,
}


def code_of(error: BaseException) -> int:
    """The code of ``error`` for sending it to another rank (or the C++ core): its class's code;
    1 (invalid argument) for the base :class:`Error`; 0 (internal) for an exception not lodex's."""
    for code, cls in BY_CODE.items():
        if code and type(error) is cls:
            return code
    return 1 if isinstance(error, Error) else 0


def from_code(code: int, message: str) -> Error:
    """The lodex error of ``code`` (as :func:`code_of` gives it) with ``message``."""
    return BY_CODE.get(code, InternalError)(message)

