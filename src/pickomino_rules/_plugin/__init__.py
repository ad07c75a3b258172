"""The plug-in contract's insides, one job a module; users import them from `plugin`.

[`pickomino_rules.plugin`][pickomino_rules.plugin] is the public face: it re-exports every
name here that a variant builds on, and each class and function says it belongs there
(``__module__``), so reprs, tracebacks, pickles and the docs name the module users import.

- `hooks`: the hooks a module may define, their signatures and when they run.
- `extension`: extension points a module offers and the wrappers others give them.
- `rule_module`: `RuleModule`, the declaration of a module, and its compiled twins' types.
- `checks`: what `compose` checks of the modules and components before folding them.
- `compose`: `compose`, the modules ordered and folded over the core turn into `Rules`.
- `ranges`: the ranges of values an option accepts (`OptionRange` and its kinds).
- `options`: `Option`, a rule option with its range, and the `boolean` converter.
- `variant`: `Variant`, a named rule set, and the composed rules it keeps.
"""
