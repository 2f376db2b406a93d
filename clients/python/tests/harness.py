"""What the tests start: Parley's fake OpenAI-compatible server (testkit/fake-llm-server.ts, the judge)
and `parley serve` (through ParleyServe), as real processes on port 0, stopped by the tests."""

import os
import re
import subprocess
import threading

from parley_seat.serve import stop_process

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


class FakeLlmServer:
    """`tsx testkit/fake-llm-server.ts --port 0`: answers judge requests with in-range scores."""

    def __init__(self, timeout=60.0):
        tsx = os.path.join(REPO, "node_modules", ".bin", "tsx")
        if not os.path.exists(tsx):
            raise RuntimeError("these tests start Parley from this clone: run `npm ci` in %s first" % REPO)
        self.process = subprocess.Popen(
            [tsx, os.path.join(REPO, "testkit", "fake-llm-server.ts"), "--port", "0"],
            cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.env = {}
        self._ready = threading.Event()
        self.output = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if not self._ready.wait(timeout) or "OPENAI_BASE_URL" not in self.env:
            self.close()
            raise RuntimeError("the fake LLM server did not start:\n" + "\n".join(self.output))

    def _read(self):
        for line in self.process.stdout:
            self.output.append(line.rstrip("\n"))
            m = re.match(r"^\s*export (\w+)=(\S+)$", line)
            if m:
                self.env[m.group(1)] = m.group(2)
                if len(self.env) >= 4:
                    self._ready.set()
        self._ready.set()

    def close(self):
        stop_process(self.process)
        self._reader.join(5)
        if self.process.stdout:
            self.process.stdout.close()


def parley_env(extra):
    """The environment serve runs in: this one without provider settings, plus `extra` (the fake's)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "MISTRAL_", "PARLEY_SEAT_TOKEN"))}
    env.update(extra)
    return env
