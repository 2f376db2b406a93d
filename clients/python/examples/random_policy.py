#!/usr/bin/env python3
"""Plays seat agent1 of 10 `parley serve` episodes with a random (or echo) policy against Parley's
built-in bot on agent2, and prints each episode's steps, end reward and reason. Trains nothing: it is
the loop a trainer would put its policy into.

    python3 clients/python/examples/random_policy.py                      # task verdict as the reward
    python3 clients/python/examples/random_policy.py --judge openai:gpt-4 # the judge's goal score (needs its key)
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from parley_seat import ParleyEnv, ParleyServe  # noqa: E402

LINES = [
    "Hi! Nice to meet you.",
    "Tell me more about that.",
    "I see what you mean.",
    "What would you suggest?",
    "That sounds reasonable to me.",
]


def random_policy(rng):
    def act(obs):
        if rng.random() < 0.2 and "non-verbal communication" in obs["actions"]:
            return {"type": "non-verbal communication", "argument": "nods"}
        return rng.choice(LINES)
    return act


def echo_policy(obs):
    """Says back the partner's latest utterance (or a greeting before there is one)."""
    spoken = [e for e in obs["history"] if e["seat"] != obs["seat"] and e["action"]["type"] == "speak"]
    return spoken[-1]["action"]["argument"] if spoken else "Hello!"


def play(env, act, episodes):
    """Runs `episodes` episodes; one summary per episode (what a trainer would turn into a trajectory)."""
    results = []
    for _ in range(episodes):
        obs = env.reset()
        first = obs
        steps, reward, info, done = 0, None, {}, obs["end"] is not None
        while not done:
            obs, reward, done, info = env.step(act(obs))
            steps += 1
        results.append({
            "episode_id": first["episode_id"], "first": first, "last": obs, "steps": steps,
            "reward": reward, "reason": info.get("reason"), "score": info.get("score"), "close_code": info.get("close_code"),
        })
    return results


def serve_args(episodes, judge=None, max_turns=6, out=None):
    args = ["--scenarios", "builtin", "--modes", "agents", "--limit", str(episodes), "--agent2", "bot", "--max-turns", str(max_turns)]
    if judge:
        args += ["--judge", judge]
    if out:
        args += ["--out", out]
    return args


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--episodes", type=int, default=10)
    p.add_argument("--policy", choices=["random", "echo"], default="random")
    p.add_argument("--judge", metavar="SPEC", help="judge each episode as it ends (parley serve --judge)")
    p.add_argument("--max-turns", type=int, default=6)
    p.add_argument("--out", metavar="DIR", help="run directory (default: a fresh runs/serve-<time>)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    act = random_policy(random.Random(a.seed)) if a.policy == "random" else echo_policy
    with ParleyServe(serve_args(a.episodes, a.judge, a.max_turns, a.out)) as serve:
        with ParleyEnv(serve.url, serve.tokens("agent1"), policy="python:" + a.policy, timeout=300) as env:
            for r in play(env, act, a.episodes):
                print("%s  %2d steps  reward %s  (%s)" % (r["episode_id"], r["steps"], r["reward"], r["reason"]))
        code = serve.wait(120)
    return code


if __name__ == "__main__":
    sys.exit(main())
