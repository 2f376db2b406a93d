"""In-process checks of the client's pure parts: the pin, actions, rewards, token files."""

import os
import tempfile
import unittest

from parley_seat import _deps, as_action, default_reward
from parley_seat.tokens import TokensFile

HERE = os.path.dirname(os.path.abspath(__file__))


class PinTest(unittest.TestCase):
    def test_requirements_pin_is_the_version_checked_at_import(self):
        with open(os.path.join(HERE, "..", "requirements.txt"), encoding="utf-8") as f:
            pins = [l.strip() for l in f if l.strip() and not l.startswith("#")]
        self.assertEqual(pins, ["websockets==" + _deps.WEBSOCKETS_VERSION])
        import websockets

        self.assertEqual(websockets.__version__, _deps.WEBSOCKETS_VERSION)


class ActionTest(unittest.TestCase):
    ALLOWED = ["none", "speak", "non-verbal communication", "action", "leave"]

    def test_forms(self):
        self.assertEqual(as_action("hi", self.ALLOWED), {"type": "speak", "argument": "hi"})
        self.assertEqual(as_action(("action", "offer $10"), self.ALLOWED), {"type": "action", "argument": "offer $10"})
        self.assertEqual(as_action({"type": "leave"}, self.ALLOWED), {"type": "leave", "argument": ""})

    def test_refused_before_sending(self):
        with self.assertRaises(ValueError):
            as_action({"type": "dance", "argument": ""}, self.ALLOWED)
        with self.assertRaises(ValueError):
            as_action("hi", ["none", "leave"])
        with self.assertRaises(ValueError):
            as_action("x" * 8001, self.ALLOWED)


class RewardTest(unittest.TestCase):
    def test_judge_goal_first_then_task_else_none(self):
        judged = {"task": {"kind": "mutual_friends", "success": True}, "judge": {"ok": True, "judge": "j", "rubric": "sotopia", "scores": {"goal": 7}}}
        self.assertEqual(default_reward(judged), 7.0)
        self.assertEqual(default_reward(judged, "believability"), 1.0)
        self.assertEqual(default_reward({"task": {"kind": "craigslist", "success": False}}), 0.0)
        self.assertIsNone(default_reward(None))
        failed = {"task": {"kind": "mutual_friends", "success": True}, "judge": {"ok": False, "judge": "j", "rubric": "sotopia", "error": {"code": "judge/bad_json", "message": "x"}}}
        self.assertIsNone(default_reward(failed))


class TokensFileTest(unittest.TestCase):
    def test_reads_the_seats_lines_in_order_and_waits_for_whole_lines(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "tokens")
            with open(path, "w") as f:
                f.write("seat agent1 token AAA\nseat agent2 token BBB\nseat agent1 token CC")
            tokens = TokensFile(path, "agent1", timeout=0.2)
            self.assertEqual(next(tokens), "AAA")
            with self.assertRaises(TimeoutError):
                next(tokens)
            with open(path, "a") as f:
                f.write("C\n")
            self.assertEqual(next(tokens), "CCC")


if __name__ == "__main__":
    unittest.main()
