"""One seat of one episode over one WebSocket: joins with the seat's token, answers the server's
heartbeat in the background, resumes a dropped connection with the seat's resume secret, and hands the
caller every other frame in order.

The seat protocol is Parley's (protocol/frames.ts): the first frame is `seat.join {token, client}`; the
server answers `seat.welcome` (with the seat's resume secret) or `error {code}` and a close. A reconnect
presents the token plus the latest resume secret; the server then replays what the seat was told (same
frame ids), which this client drops as already delivered.

Credentials: the token and the resume secret go only into `seat.join` frames. They are never in a URL,
an exception, a `repr` or a log line; the websockets library's own frame log (DEBUG) is switched off
for this client's connections, since it would print the join frame.
"""

import asyncio
import itertools
import json
import logging
import os
import queue
import re
import socket
import threading

from . import _deps  # noqa: F401  (the version check, before websockets is used)
import websockets.client
import websockets.exceptions

from .errors import ProtocolError, SeatLost, SeatRefused

PROTOCOL_VERSION = 1
#: Largest frame either side accepts (protocol/version.ts MAX_FRAME_BYTES).
MAX_FRAME_BYTES = 256 * 1024
CLIENT_NAME = "parley-python"
CLIENT_VERSION = "0.1.0"

#: Join refusals after which retrying cannot help (protocol/codes.ts JOIN_REFUSAL_CODES).
JOIN_REFUSAL_CODES = frozenset([
    "seat/not_joined", "seat/bad_token", "seat/taken", "seat/already_joined", "seat/token_spent",
    "seat/bad_resume", "seat/closed", "protocol/version_mismatch", "internal/error",
])
#: Close codes (protocol/codes.ts CloseCode).
CLOSE_EPISODE_ENDED = 4000
REFUSAL_CLOSES = frozenset([4002, 4003])
FINAL_CLOSES = frozenset([4001, 4005, 4006, 4007, 4008])

_LOG = logging.getLogger("parley_seat")
# The library logs every frame at DEBUG, the join frame (token, resume secret) included: never for us.
_WS_LOG = logging.getLogger("parley_seat.websockets")
_WS_LOG.setLevel(logging.WARNING)


class SeatSession:
    """A seat's connection. Frames arrive through `next_frame`; moves go out through `send`."""

    def __init__(self, url, token, policy="python", reconnect_attempts=5, open_timeout=10.0):
        if not isinstance(token, str) or not token:
            raise ValueError("a seat token is required")
        self._url = url
        self._token = token
        self._policy = policy
        self._attempts = reconnect_attempts
        self._open_timeout = open_timeout
        self._resume = None
        self._seen = set()
        self._ended = False
        self._closing = False
        self._wait = 0
        self._ws = None
        # The connection a move can go out on: set at its welcome, cleared when it closes (a resume swaps it).
        self._live = None
        self._over = False
        self._cond = threading.Condition()
        self._ids = ("p" + format(n, "x") for n in itertools.count())
        self._inbox = queue.Queue()
        self.close_code = None
        self.close_reason = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="parley-seat", daemon=True)
        self._thread.start()
        self._task = asyncio.run_coroutine_threadsafe(self._run(), self._loop)

    def __repr__(self):
        return "SeatSession(url=%r)" % (self._url,)

    # ── the caller's side (any thread but the session's)

    def next_frame(self, timeout=None):
        """The next frame from the server (a dict), or `{"type": "closed", "code", "reason"}` after the
        normal close that follows `episode.end`. Raises SeatRefused, SeatLost, ProtocolError."""
        try:
            item = self._inbox.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError("no frame from the server within %s s" % timeout) from None
        if isinstance(item, BaseException):
            raise item
        return item

    def send(self, body, timeout=30.0):
        """Stamps a frame body (`v`, `id`) and sends it on the seat's connection, waiting (up to `timeout`
        seconds) while a dropped one is resumed; returns the frame's id (an `error.re` names it)."""
        frame = dict(body, v=PROTOCOL_VERSION, id=next(self._ids))
        failed = None
        for _ in range(2):
            with self._cond:
                self._cond.wait_for(lambda: self._over or (self._live is not None and self._live is not failed), timeout)
                ws = None if self._over else self._live
            if ws is None or ws is failed:
                break
            try:
                asyncio.run_coroutine_threadsafe(ws.send(json.dumps(frame)), self._loop).result(timeout)
                return frame["id"]
            except websockets.exceptions.ConnectionClosed:
                failed = ws  # dropped under the send: once more on the resumed connection
        raise SeatLost("connection/lost", "not connected to the server")

    def drop_connection(self):
        """Cuts the connection as a network failure would (no close handshake); the session then resumes
        the seat with its resume secret. For tests of resumption."""
        ws = self._ws
        if ws is not None:
            self._loop.call_soon_threadsafe(ws.transport.abort)

    def close(self):
        """Closes the connection (a seat still playing is then the server's to end) and stops the thread."""
        self._closing = True
        ws = self._ws
        if ws is not None and self._loop.is_running():
            try:
                asyncio.run_coroutine_threadsafe(ws.close(), self._loop).result(5)
            except Exception:  # already closed, or the loop is stopping
                pass
        try:
            self._task.result(5)
        except Exception:
            self._task.cancel()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        if not self._loop.is_running():
            self._loop.close()

    # ── the session's thread

    async def _run(self):
        try:
            await self._connect_loop()
        except Exception as err:  # a bug here must still reach the caller, not vanish with the thread
            self._inbox.put(SeatLost("connection/lost", "seat client failed: %s" % (err,)))
        finally:
            with self._cond:
                self._over = True
                self._live = None
                self._cond.notify_all()

    def _set_live(self, ws):
        with self._cond:
            self._live = ws
            self._cond.notify_all()

    async def _connect_loop(self):
        failures = 0
        while not self._closing:
            try:
                ws = await websockets.client.connect(
                    self._url, max_size=MAX_FRAME_BYTES, open_timeout=self._open_timeout, logger=_WS_LOG,
                )
            except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException) as err:
                failures += 1
                if failures > self._allowed():
                    self._inbox.put(SeatLost("connection/lost", "cannot reach %s (%s) after %d attempts" % (self._url, err, failures)))
                    return
                await asyncio.sleep(min(3.0, 0.2 * 2 ** (failures - 1)))
                continue
            self._ws = ws
            outcome = await self._serve(ws)
            self._ws = None
            if outcome is not None:
                self._inbox.put(outcome)
                return
            if self._closing:
                return
            failures += 1
            if failures > self._allowed():
                self._inbox.put(SeatLost("connection/lost", "the connection dropped (close %s) and could not be resumed after %d attempts" % (ws.close_code, failures)))
                return
            await asyncio.sleep(max(self._wait, min(3.0, 0.2 * 2 ** (failures - 1))))
            self._wait = 0

    def _allowed(self):
        # Before the first welcome a wrong URL fails fast; a welcomed seat rides out a short outage.
        return self._attempts if self._resume is not None else 1

    async def _serve(self, ws):
        """Joins and reads until the connection closes. Returns what ends the session, or None to reconnect."""
        join = {"v": PROTOCOL_VERSION, "id": next(self._ids), "type": "seat.join", "token": self._token, "client": self._client()}
        if self._resume is not None:
            join["resume"] = self._resume
        welcomed = False
        refusal = None
        try:
            await ws.send(json.dumps(join))
            async for text in ws:
                frame = _decode(text)
                kind = frame["type"]
                if kind == "ping":
                    await ws.send(json.dumps({"v": PROTOCOL_VERSION, "id": next(self._ids), "type": "pong", "nonce": frame.get("nonce", "")}))
                    continue
                if kind == "seat.welcome":
                    welcomed = True
                    self._resume = frame.get("resume")
                    self._set_live(ws)
                elif kind == "error" and not welcomed:
                    if frame.get("code") == "seat/rate_limited":
                        self._wait = _retry_seconds(frame.get("message", ""))
                        continue
                    if frame.get("code") in JOIN_REFUSAL_CODES:
                        refusal = frame
                        continue
                elif kind == "episode.end":
                    self._ended = True
                # A rejoin replays what the seat was told, with the ids first sent: delivered once only.
                if frame["id"] in self._seen:
                    continue
                self._seen.add(frame["id"])
                self._inbox.put(_public(frame))
        except ProtocolError as err:
            await ws.close(1002, "unreadable frame")
            return err
        except websockets.exceptions.ConnectionClosed:
            pass
        finally:
            with self._cond:
                if self._live is ws:
                    self._live = None
        code, reason = ws.close_code, ws.close_reason
        if self._ended or code == CLOSE_EPISODE_ENDED:
            self.close_code, self.close_reason = code, reason
            return {"type": "closed", "code": code, "reason": reason}
        if refusal is not None:
            return SeatRefused(refusal["code"], str(refusal.get("message", "")))
        if code in REFUSAL_CLOSES and not self._wait:
            return SeatRefused("seat/join_refused", "join refused (close %s: %s)" % (code, reason))
        if code in FINAL_CLOSES:
            return SeatLost("connection/closed_by_server", "the server closed the seat (close %s: %s)" % (code, reason))
        return None

    def _client(self):
        client = {"name": CLIENT_NAME, "version": CLIENT_VERSION, "policy": _one_line(self._policy, 200), "pid": os.getpid()}
        host = _one_line(socket.gethostname(), 200)
        if host:
            client["host"] = host
        return client


def _decode(text):
    """A frame from the server: JSON, this protocol version, a type and an id; anything else is refused."""
    if not isinstance(text, str):
        raise ProtocolError("protocol/bad_frame", "a binary frame (the protocol is JSON text)")
    try:
        frame = json.loads(text)
    except ValueError:
        raise ProtocolError("protocol/bad_frame", "a frame that is not JSON") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str) or not isinstance(frame.get("id"), str):
        raise ProtocolError("protocol/bad_frame", "a frame without type or id")
    if frame.get("v") != PROTOCOL_VERSION:
        raise ProtocolError("protocol/version_mismatch", "the server speaks protocol version %r, this client %d" % (frame.get("v"), PROTOCOL_VERSION))
    return frame


def _public(frame):
    """The frame as the caller sees it: the resume secret is the session's, not the caller's."""
    if frame["type"] == "seat.welcome" and "resume" in frame:
        frame = dict(frame)
        del frame["resume"]
    return frame


def _retry_seconds(message):
    m = re.search(r"retry in (\d+) s", message)
    return int(m.group(1)) if m else 1


def _one_line(text, limit):
    """What the server accepts as one line (no control characters), cut to its limit."""
    return "".join(ch for ch in str(text) if ch >= " " and ch != "\x7f")[:limit]
