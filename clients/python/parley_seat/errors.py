"""Exceptions of the seat client: one base class, each with the code Parley's code table gives it."""


class ParleyError(Exception):
    """Base class. `code` is a Parley error code (`area/reason`, protocol/codes.ts)."""

    def __init__(self, code, message):
        super().__init__(code + ": " + message)
        self.code = code
        self.message = message


class SeatRefused(ParleyError):
    """The server refused to seat this client: a wrong, spent or expired token, a wrong resume secret.

    `code` is the server's own (`seat/bad_token`, `seat/token_spent`, …), or `seat/join_refused` when the
    server closed the connection with a refusal close code (4002, 4003) and no error frame.
    """


class MoveRefused(ParleyError):
    """The server refused a move (`turn/action_not_allowed`, `turn/stale`, …); the turn may still be open."""


class SeatLost(ParleyError):
    """The connection dropped and could not be resumed, or the server closed the seat for good."""


class ProtocolError(ParleyError):
    """The server sent something this client cannot read (another protocol version, a malformed frame)."""
