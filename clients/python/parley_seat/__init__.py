"""Parley's seat client for Python: play one seat of `parley serve` episodes from a training loop.

    from parley_seat import ParleyEnv, ParleyServe
    with ParleyServe(["--scenarios", "builtin", "--modes", "agents", "--agent2", "bot", "--limit", "10"]) as serve:
        env = ParleyEnv(serve.url, serve.tokens("agent1"))
        obs = env.reset()
        obs, reward, done, info = env.step("Hello!")

Standard library plus websockets==10.4 (requirements.txt; Debian: python3-websockets).
"""

from . import _deps  # noqa: F401  (the pinned websockets, checked first)
from .env import ParleyEnv, as_action, default_reward
from .errors import MoveRefused, ParleyError, ProtocolError, SeatLost, SeatRefused
from .serve import ParleyServe
from .session import SeatSession
from .tokens import TokensFile

__all__ = [
    "ParleyEnv", "ParleyServe", "SeatSession", "TokensFile", "as_action", "default_reward",
    "ParleyError", "SeatRefused", "MoveRefused", "SeatLost", "ProtocolError",
]
__version__ = "0.1.0"
