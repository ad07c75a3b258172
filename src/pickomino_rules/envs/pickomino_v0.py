"""The PettingZoo environment under a versioned name, as PettingZoo's classic games have theirs.

PettingZoo names each game's module with a version (``pettingzoo.classic.chess_v6``) that
changes whenever its observations, actions, rewards or dynamics change, so that results stay
comparable. This is that name for
[`pickomino_rules.envs.pettingzoo`][pickomino_rules.envs.pettingzoo]:

```python
from pickomino_rules.envs import pickomino_v0

game = pickomino_v0.env(variant="classic", players=2)
game.reset(seed=1)
```

Its ``metadata["name"]`` is ``"pickomino_v0"``; a change of the encoding or of the rewards
comes with ``pickomino_v1``, and this module stays.
"""

from __future__ import annotations

from pickomino_rules.envs.pettingzoo import env, raw_env

__all__ = ["env", "raw_env"]
