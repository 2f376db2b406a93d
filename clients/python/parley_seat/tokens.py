"""Seat tokens from `parley serve --tokens-file FILE`: the file serve appends `seat <seat> token <T>` lines
to (owner-only), one line per open seat as each episode is prepared. Reading tokens from there keeps them
out of command lines, URLs and logs, as the README asks of every remote agent."""

import os
import re
import time

_LINE = re.compile(r"^seat (\S+) token ([0-9A-Za-z_-]{1,128})$")


class TokensFile:
    """Iterates over the tokens of `seat` in FILE in the order serve wrote them, waiting up to `timeout`
    seconds for the next one (serve writes an episode's line when it prepares that episode)."""

    def __init__(self, path, seat, timeout=120.0, poll=0.05):
        self.path = path
        self.seat = seat
        self._timeout = timeout
        self._poll = poll
        self._used = 0

    def __iter__(self):
        return self

    def __repr__(self):
        return "TokensFile(%r, seat=%r)" % (self.path, self.seat)

    def __next__(self):
        deadline = time.monotonic() + self._timeout
        while True:
            tokens = self._tokens()
            if len(tokens) > self._used:
                self._used += 1
                return tokens[self._used - 1]
            if time.monotonic() >= deadline:
                raise TimeoutError("no token for seat %s in %s within %s s" % (self.seat, self.path, self._timeout))
            # serve appends a line per prepared episode; nothing to wake on portably but the file itself.
            time.sleep(self._poll)

    def _tokens(self):
        try:
            with open(self.path, "r", encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            return []
        out = []
        # Only whole lines: a line being appended is read on the next look.
        for line in text.split("\n")[:-1]:
            m = _LINE.match(line.strip())
            if m and m.group(1) == self.seat:
                out.append(m.group(2))
        return out


def owner_only(path):
    """Whether FILE is readable by its owner only (serve creates it 0600): tokens are credentials."""
    return (os.stat(path).st_mode & 0o077) == 0
