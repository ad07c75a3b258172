"""Research programs: how strong a bot is, and how far from perfect play.

Tested code that the docs' measurements come from, each module runnable as a program:

- [`paired`][pickomino_rules.research.paired]: two bots against one opponent on the same
  seeded games, and the net wins where their results differ
  (``python -m pickomino_rules.research.paired``).
- [`small_games`][pickomino_rules.research.small_games]: 2-player games of a few tiles,
  solved exactly (``python -m pickomino_rules.research.small_games``).
- [`endgame_bounds`][pickomino_rules.research.endgame_bounds]: the chance to win from an
  endgame of the whole game, bracketed (``python -m pickomino_rules.research.endgame_bounds``).

They need the ``solver`` extra (numpy), as the bots they measure do.
"""
