"""The built-in rule modules' batch twins: each module's hooks over many games at once.

Each module of ``pickomino_rules.variants`` names its twin in its ``batch`` field; the twins
live here, apart, because they need numpy (the ``batch`` extra) and the rules do not. See
[`pickomino_rules.batch_plugin`][pickomino_rules.batch_plugin] for the contract.
"""
