"""The one third-party dependency, checked once at import with a message that says what to install."""

#: The pinned version (requirements.txt says the same; tests/test_units.py checks they agree).
WEBSOCKETS_VERSION = "10.4"

_HOW = (
    "install it with `apt-get install python3-websockets` (Debian 12 ships " + WEBSOCKETS_VERSION + ") "
    "or `pip install -r clients/python/requirements.txt`"
)

try:
    import websockets  # noqa: F401
    import websockets.client  # noqa: F401
    import websockets.exceptions  # noqa: F401
except ImportError as err:  # pragma: no cover - depends on the machine
    raise ImportError("parley_seat needs websockets==" + WEBSOCKETS_VERSION + ": " + _HOW) from err

if websockets.__version__ != WEBSOCKETS_VERSION:  # pragma: no cover - depends on the machine
    raise ImportError(
        "parley_seat needs websockets==" + WEBSOCKETS_VERSION + " (found " + websockets.__version__
        + " at " + str(websockets.__file__) + "): " + _HOW
    )
