"""The built-in variants, installed as ``pickomino_rules.variants``.

Each is registered through the entry-point group ``pickomino_rules.variants``,
exactly as a third-party plug-in registers its own; they use only the core's
public hook API.
"""
