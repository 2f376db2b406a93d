"""The seat client against a real `parley serve` (issue 40, contract 3): 10 episodes of seat agent1
against the built-in bot on agent2, each judged as it ends by `--judge` (Parley's fake OpenAI-compatible
server in the judge's place); a wrong token refused with the server's code. Real processes, port 0."""

import json
import os
import random
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))

from parley_seat import MoveRefused, ParleyEnv, ParleyServe, SeatRefused  # noqa: E402
from parley_seat.tokens import owner_only  # noqa: E402
from random_policy import play, random_policy, serve_args  # noqa: E402

from .harness import FakeLlmServer, parley_env  # noqa: E402

EPISODES = 10
JUDGE = "openai:gpt-4"


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


class ServeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="parley-python-test-")
        cls.out = os.path.join(cls.tmp, "run")
        cls.fake = FakeLlmServer()
        try:
            cls.serve = ParleyServe(serve_args(EPISODES, judge=JUDGE, max_turns=6, out=cls.out), env=parley_env(cls.fake.env))
        except Exception:
            cls.fake.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.serve.close()
        cls.fake.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_1_a_wrong_token_is_refused_with_the_servers_code(self):
        wrong = "not-a-token-of-this-server"
        with ParleyEnv(self.serve.url, [wrong], timeout=30) as env:
            with self.assertRaises(SeatRefused) as refused:
                env.reset()
        self.assertEqual(refused.exception.code, "seat/bad_token")
        self.assertNotIn(wrong, str(refused.exception))

    def test_2_ten_episodes_observations_end_reward_and_clean_close(self):
        self.assertTrue(owner_only(self.serve.tokens_path), "serve's tokens file is owner-only")
        with ParleyEnv(self.serve.url, self.serve.tokens("agent1"), policy="python:random", timeout=120) as env:
            results = play(env, random_policy(random.Random(1)), EPISODES)
        self.assertEqual(self.serve.wait(180), 0, "\n".join(self.serve.output[-20:]))

        records = {r["episodeId"]: r for r in read_jsonl(os.path.join(self.out, "episodes.jsonl"))}
        scenarios = {s["id"]: s for s in read_jsonl(os.path.join(self.out, "scenarios.jsonl"))}
        self.assertEqual(len(results), EPISODES)
        self.assertEqual(sorted(records), sorted(r["episode_id"] for r in results))
        for r in results:
            record = records[r["episode_id"]]
            first = r["first"]
            # Observations: the seat's own welcome, then turns.
            self.assertEqual(first["seat"], "agent1")
            self.assertEqual(first["self"]["goal"], next(s["goal"] for s in scenarios[record["scenarioId"]]["seats"] if s["seat"] == "agent1"))
            self.assertGreater(r["steps"], 0)
            self.assertEqual(record["status"], "ok")
            self.assertEqual(r["reason"], record["termination"]["reason"])
            # The end reward: the judge's goal score for this seat, as stored on the record.
            judged = record["evaluation"]["judge"]
            self.assertEqual(judged["judge"]["spec"], JUDGE)
            self.assertEqual(r["reward"], float(judged["seats"]["agent1"]["scores"]["goal"]["score"]))
            self.assertEqual(r["score"]["judge"]["scores"]["goal"], judged["seats"]["agent1"]["scores"]["goal"]["score"])
            self.assertEqual(r["score"]["task"], {"kind": record["outcome"]["kind"], "success": record["outcome"]["success"]})
            # A clean close: the server's normal end code after episode.end.
            self.assertEqual(r["close_code"], 4000)
            seat = next(s for s in record["seats"] if s["seat"] == "agent1")
            self.assertEqual(seat["client"]["name"], "parley-python")
            # The seat was left open (no --agent1), taken by this client: recorded as what it reports.
            self.assertEqual((seat["policy"], seat.get("provenance")), ("python:random", "reported"))
            self.assertIsInstance(seat["pid"], int)
            self.assert_isolated(r, record, scenarios[record["scenarioId"]])

        # Tokens and resume secrets are credentials: on no output line, in no record or ledger.
        with open(self.serve.tokens_path, encoding="utf-8") as f:
            tokens = [line.split()[3] for line in f if line.strip()]
        self.assertEqual(len([t for t in tokens]), EPISODES)
        stored = "\n".join(self.serve.output)
        for root, _, files in os.walk(self.out):
            for name in files:
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    stored += f.read()
        for token in tokens:
            self.assertNotIn(token, stored)

    def test_3_a_dropped_connection_resumes_the_seat_with_its_resume_secret(self):
        # Also: a refused move raises MoveRefused with the server's code and leaves the turn open.
        out = os.path.join(self.tmp, "resumed")
        with ParleyServe(serve_args(1, max_turns=6, out=out), env=parley_env({})) as serve:
            with ParleyEnv(serve.url, serve.tokens("agent1"), policy="python:resume", timeout=60) as env:
                obs = env.reset()
                # A move the server refuses while the turn stays open: the server's code, and the turn is still ours.
                with self.assertRaises(MoveRefused) as refused:
                    env.step({"type": "speak", "argument": "to myself", "to": ["agent1"]})
                self.assertEqual(refused.exception.code, "turn/bad_recipients")
                obs, _, done, _ = env.step("Hello before the drop.")
                self.assertFalse(done)
                env._session.drop_connection()  # the network fails with this seat's turn open
                steps = 0
                while not done:
                    obs, reward, done, info = env.step("Hello again.")
                    steps += 1
            self.assertEqual(serve.wait(120), 0, "\n".join(serve.output[-20:]))
        self.assertGreater(steps, 0)
        self.assertEqual(info["close_code"], 4000)
        self.assertEqual(reward, 1.0 if info["score"]["task"]["success"] else 0.0)
        [record] = read_jsonl(os.path.join(out, "episodes.jsonl"))
        self.assertEqual(record["status"], "ok")
        kinds = [e["kind"] for e in record.get("seatEvents", []) if e["seat"] == "agent1"]
        self.assertIn("down", kinds)
        self.assertIn("rejoined", kinds)
        # The replay on rejoin is delivered once: the history is the turns in order, each once.
        turns = [e["turn"] for e in obs["history"]]
        self.assertEqual(turns, sorted(set(turns)))
        self.assertEqual(turns, [t["turn"] for t in record["turns"] if t["action"] is not None])

    def assert_isolated(self, result, record, scenario):
        """Only agent1's frames: what it observed is exactly its ledger, and holds nothing private of agent2."""
        ledger = read_jsonl(os.path.join(self.out, "ledgers", record["episodeId"], "agent1.jsonl"))
        events = [{"turn": f["turn"], "seat": f["seat"], "action": f["action"]} for f in ledger if f["type"] == "turn.event"]
        self.assertEqual(result["last"]["history"], events)
        end = ledger[-1]
        self.assertEqual(end["type"], "episode.end")
        self.assertEqual(end.get("score"), result["score"])
        partner = next(s for s in scenario["seats"] if s["seat"] == "agent2")
        seen = json.dumps([result["first"], result["last"]])
        self.assertNotIn(partner["goal"], seen)
        self.assertNotIn("agent2", json.dumps(result["score"]))


if __name__ == "__main__":
    unittest.main()
