"""The compiled plug-in contract: compiled twins of a rule module's hooks.

A rule module's hooks are Python; a module may also carry compiled twins of the busiest of
them ([`RuleModule.compiled`][pickomino_rules.plugin.RuleModule]), the way it carries a
vectorised twin for the batch engine. Under the compiled engine,
[`compose`][pickomino_rules.plugin.compose] folds each twin into the hook's chain where the
module's hook would go, and the kernel calls a chain of twins in C, without Python calls between
them. Under the pure engine the twins are never used: the module's hooks are the reference.

A twin is a Cython ``cdef class`` deriving from `HookTwin` (``cimport`` it from
``pickomino_rules/compiled_plugin.pxd``, shipped with the package), made with the function it
wraps (``inner``), and implementing the C method of its hook's arity: ``run(rules, state)``
(``roll_actions``, ``stop_total``, ``bust``...), ``run1(rules, state, x)`` (``set_aside``,
``claims``, ``take_tile``...) or ``run2(rules, state, x, y)`` (an extension point of four
arguments). It calls what it wraps with the ``pxd``'s ``call``, ``call1`` or ``call2``, which
stay in C when that is a twin too; ``field(state, PARTS)`` reads a state's field and
``with_part(state, index, value)`` replaces one part (``PartKey.set``), both in C. Called from
Python a twin behaves as the hook it mirrors: ``twin(rules, state, ...)``.

A module's part may have a compiled twin of its ``observe`` (the numeric encoding's features
of the part) too: keyed by the module's [`PartKey`][pickomino_rules.state.PartKey] in
``RuleModule.compiled``, made with the Python ``observe`` as ``inner``, it overrides the C method
``fill(rules, state, value, me, out, room)``, which writes the features into ``out`` and returns
how many there are; the compiled engine's observation calls it in C
([`Rules.observers`][pickomino_rules.rules.Rules] holds them by part name).

A twin is a second implementation of its hook: check it against the hook by playing the rules
with the twins (compiled engine) and without (pure engine), as
``tests/engine/test_compiled_twins.py`` does for the built-in variants' twins.
"""

from typing import Any

__all__ = ["HookTwin"]

class HookTwin:
    """A compiled twin of one module's hook (or extension), wrapping ``inner``.

    Attributes:
        inner: The function it wraps: the next twin or hook of the chain.
    """

    inner: Any
    def __init__(self, inner: Any) -> None: ...  # noqa: ANN401
    def __call__(self, rules: Any, state: Any, *more: Any) -> Any: ...  # noqa: ANN401
    def features(self, rules: Any, state: Any, value: Any, me: int) -> list[float]:  # noqa: ANN401
        """A part observer twin's features, as its C method ``fill`` writes them."""
