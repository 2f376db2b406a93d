"""Starts `parley serve` as a child process for a training loop or a test: on port 0 (any free port),
its seat tokens written to an owner-only file in a private temporary directory, never on its output."""

import os
import re
import shutil
import subprocess
import tempfile
import threading

from .tokens import TokensFile

_LISTENING = re.compile(r"^listening (ws://\S+)")


def default_command():
    """How to start Parley: this clone's `bin/parley.js` under node when the package sits in a Parley
    clone (clients/python), else `npx parley`."""
    here = os.path.dirname(os.path.abspath(__file__))
    cli = os.path.normpath(os.path.join(here, "..", "..", "..", "bin", "parley.js"))
    return ["node", cli] if os.path.isfile(cli) else ["npx", "parley"]


class ParleyServe:
    """`parley serve ARGS…` in a child process. `url` is its agent endpoint once started; `tokens(seat)`
    iterates over that seat's tokens, episode by episode. Use as a context manager, or call `close()`."""

    def __init__(self, args, command=None, env=None, cwd=None, start_timeout=120.0):
        for flag in ("--port", "--tokens-file"):
            if flag in args:
                raise ValueError("%s is ParleyServe's to set (port 0, a private tokens file)" % flag)
        self._dir = tempfile.mkdtemp(prefix="parley-seat-")
        self.tokens_path = os.path.join(self._dir, "tokens")
        argv = list(command or default_command()) + ["serve", "--port", "0", "--tokens-file", self.tokens_path] + list(args)
        self.output = []
        self._listening = threading.Event()
        self.url = None
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, encoding="utf-8", errors="replace",
        )
        self._reader = threading.Thread(target=self._read, name="parley-serve-output", daemon=True)
        self._reader.start()
        if not self._listening.wait(start_timeout) or self.url is None:
            self.close()
            raise RuntimeError("parley serve did not start listening within %s s:\n%s" % (start_timeout, "\n".join(self.output[-20:])))

    def _read(self):
        for line in self.process.stdout:
            line = line.rstrip("\n")
            self.output.append(line)
            m = _LISTENING.match(line)
            if m and self.url is None:
                self.url = m.group(1)
                self._listening.set()
        # The output ended: serve exited (a failed start never prints the line).
        self._listening.set()

    def tokens(self, seat, timeout=120.0):
        """The seat's tokens in the order serve prepares its episodes."""
        return TokensFile(self.tokens_path, seat, timeout=timeout)

    def wait(self, timeout=None):
        """Waits for serve to exit (it does once every episode is recorded); returns its exit status."""
        code = self.process.wait(timeout)
        self._reader.join(5)
        return code

    def close(self):
        stop_process(self.process)
        # The reader ends at the output's end (the process is gone); the pipe is closed after it.
        self._reader.join(5)
        if self.process.stdout:
            self.process.stdout.close()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def stop_process(process, grace=10.0):
    """Stops a child this client started: SIGTERM, then SIGKILL after `grace` seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
