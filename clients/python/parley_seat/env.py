"""A gym-style environment over one seat: `reset()` joins the next episode's seat and returns the first
observation; `step(action)` sends the move and returns `(observation, reward, done, info)`.

The environment is a remote agent like any other (`parley agent`): it holds one seat of one episode at a
time and sees only the frames addressed to that seat. Intermediate rewards are 0.0; the last step's
reward is the seat's end score from `episode.end` (see `default_reward`).
"""

from .errors import MoveRefused, ProtocolError, SeatLost
from .session import SeatSession

#: What `step` accepts as a plain string: an utterance.
SPEAK = "speak"
#: Refusals of a move whose turn has passed (its deadline, most likely): no retry can help, play goes on.
TURN_GONE = frozenset(["turn/stale", "turn/not_your_turn", "turn/deadline_missed"])


def default_reward(score, dimension="goal"):
    """The end reward from an `episode.end` score: the judge's `dimension` score (`parley serve --judge`),
    else the task's verdict (1.0 success, 0.0 failure), else None: no score was given, or the judge failed
    for this seat (`info["score"]` then holds its coded error; a missing score is never turned into 0)."""
    score = score or {}
    judge = score.get("judge")
    if judge and judge.get("ok") and dimension in judge.get("scores", {}):
        return float(judge["scores"][dimension])
    task = score.get("task")
    if task is not None and not (judge and not judge.get("ok")):
        return 1.0 if task.get("success") else 0.0
    return None


def as_action(action, allowed):
    """A move as the protocol spells it: a string is speech; a dict needs `type` (one of `allowed`) and
    `argument`, and may name `to` (seats: a private move); a `(type, argument)` pair is read as such.
    Refused here, before anything is sent."""
    if isinstance(action, str):
        action = {"type": SPEAK, "argument": action}
    elif isinstance(action, (tuple, list)) and len(action) == 2:
        action = {"type": action[0], "argument": action[1]}
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ValueError("an action is a string (speech), a (type, argument) pair or {'type', 'argument'}")
    argument = action.get("argument", "")
    if not isinstance(argument, str):
        raise ValueError("an action's argument must be a string")
    if action["type"] not in allowed:
        raise ValueError("action type %r is not allowed on this turn (allowed: %s)" % (action["type"], ", ".join(allowed)))
    if len(argument) > 8000:
        raise ValueError("an action's argument is at most 8000 characters (protocol/action.ts)")
    move = {"type": action["type"], "argument": argument}
    if action.get("to") is not None:
        # A private move (speech or a gesture to some seats only); the server checks the recipients.
        if not isinstance(action["to"], (list, tuple)) or not all(isinstance(s, str) for s in action["to"]):
            raise ValueError("an action's `to` is a list of seat ids")
        move["to"] = list(action["to"])
    return move


class ParleyEnv:
    """One seat, one episode per `reset()`.

    `url`: the server's agent endpoint (`ws://HOST:PORT/agent`, as `parley serve` prints it).
    `tokens`: where each episode's seat token comes from: an iterable of tokens, such as
    `TokensFile(path, "agent1")` over `parley serve --tokens-file` or `ParleyServe.tokens("agent1")`.
    `reward_fn(score) -> float | None`: the end reward (default `default_reward`).
    `timeout`: seconds to wait for the server between moves (None: as long as it takes).
    """

    def __init__(self, url, tokens, policy="python", reward_fn=default_reward, timeout=None):
        self.url = url
        self._tokens = iter(tokens)
        self._policy = policy
        self._reward_fn = reward_fn
        self._timeout = timeout
        self._session = None
        self._obs = None
        self._pending = None
        self.done = True

    # ── gym API

    def reset(self):
        """Joins the next episode's seat and waits for this seat's first turn (or the episode's end)."""
        self.close()
        try:
            token = next(self._tokens)
        except StopIteration:
            raise RuntimeError("no more seat tokens: every episode of the token source is played") from None
        self._session = SeatSession(self.url, token, policy=self._policy)
        del token
        welcome = self._session.next_frame(self._timeout)
        if welcome["type"] != "seat.welcome":
            raise ProtocolError("protocol/unexpected_frame", "expected seat.welcome first, got %s" % welcome["type"])
        self._obs = _initial_observation(welcome)
        self._sent, self._acted, self._resent = None, None, set()
        self.done = False
        ended = self._advance()
        if ended is not None:
            self.done = True
            self._obs["end"] = ended
        return self._snapshot()

    def step(self, action):
        """Sends this seat's move; returns `(observation, reward, done, info)` at its next turn or at the end."""
        if self.done or self._pending is None:
            raise RuntimeError("the episode is over: call reset()")
        move = as_action(action, self._pending["actions"])
        frame_id = self._session.send({
            "type": "turn.act",
            "turn": self._pending["turn"],
            "action": move,
            "meta": {"policy": self._policy, "latencyMs": 0},
        })
        self._sent = frame_id
        self._acted = (self._pending["turn"], move)
        ended = self._advance()
        if ended is None:
            return self._snapshot(), 0.0, False, {}
        self.done = True
        self._obs["end"] = ended
        info = {"reason": ended["reason"], "score": ended.get("score"), "close_code": ended["close_code"]}
        return self._snapshot(), self._reward_fn(ended.get("score")), True, info

    def close(self):
        if self._session is not None:
            self._session.close()
            self._session = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ── frames to observations

    _sent = None
    _acted = None

    def _advance(self):
        """Reads frames until this seat's next turn (returns None) or the episode's end and close (returns
        the end: reason, score, close code). A move of ours the server refused raises MoveRefused."""
        requested, self._pending = self._pending, None
        self._obs["new_events"] = []
        end = None
        while True:
            frame = self._session.next_frame(self._timeout)
            kind = frame["type"]
            if kind == "turn.request":
                if self._acted is not None and frame["turn"] == self._acted[0]:
                    # Asked again for the turn just answered: the seat was resumed after a drop and the move
                    # may not have arrived. Sent once more; if the first did arrive, the refusal is ignored.
                    self._resent.add(self._session.send({"type": "turn.act", "turn": frame["turn"], "action": self._acted[1], "meta": {"policy": self._policy, "latencyMs": 0}}))
                    continue
                self._pending = {"turn": frame["turn"], "actions": list(frame["actions"]), "deadline_ms": frame["deadlineMs"]}
                return None
            if kind == "turn.event":
                event = {"turn": frame["turn"], "seat": frame["seat"], "action": frame["action"]}
                self._obs["history"].append(event)
                self._obs["new_events"].append(event)
            elif kind == "peer.state":
                self._obs["peer_states"].append({"reason": frame["reason"], "state": frame["state"]})
            elif kind == "error":
                if frame.get("re") in self._resent:
                    continue
                refusal = {"code": frame["code"], "message": frame.get("message", "")}
                if frame.get("re") is not None and frame.get("re") == self._sent and frame["code"] not in TURN_GONE:
                    # The turn is still open (a move of a kind it does not take, bad recipients): try again.
                    self._pending = requested
                    raise MoveRefused(refusal["code"], refusal["message"])
                # Anything else (the deadline passed before the move arrived, …) is shown, and play goes on.
                self._obs["errors"].append(refusal)
            elif kind == "episode.end":
                end = {"reason": frame["reason"], "score": frame.get("score")}
            elif kind == "closed":
                if end is None:
                    raise SeatLost("connection/closed_by_server", "closed (%s) without an episode.end" % frame["code"])
                end["close_code"] = frame["code"]
                return end
            elif kind == "script.request":
                raise ProtocolError("protocol/unexpected_frame", "this seat is a script writer: ParleyEnv plays character seats")

    def _snapshot(self):
        obs = dict(self._obs)
        for key in ("history", "new_events", "peer_states", "errors"):
            obs[key] = list(obs[key])
        obs["turn"] = self._pending["turn"] if self._pending else None
        obs["actions"] = list(self._pending["actions"]) if self._pending else []
        obs["deadline_ms"] = self._pending["deadline_ms"] if self._pending else None
        return obs


def _initial_observation(welcome):
    """What the seat knows at the start: exactly its welcome (minus the resume secret, kept by the session)."""
    return {
        "episode_id": welcome["episodeId"],
        "seat": welcome["seat"],
        "mode": welcome["mode"],
        "scenario": welcome["scenario"],
        "self": welcome["self"],
        "partners": welcome["partners"],
        "limits": welcome["limits"],
        "protocol": welcome.get("protocol"),
        "peer_states": [],
        "history": [],
        "new_events": [],
        "errors": [],
        "end": None,
    }
