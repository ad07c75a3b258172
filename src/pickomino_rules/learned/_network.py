"""Small dense networks in ``.npz`` files: numpy arrays and a JSON header, never pickles."""

from __future__ import annotations

import io
import json
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from pickomino_rules.files import AtomicWriter

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from numpy.typing import NDArray

Layers = tuple[tuple["NDArray[np.float64]", "NDArray[np.float64]"], ...]
"""Each layer's weights (outputs x inputs) and biases, input layer first."""


def read_only(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy of a header's mapping (options, about), for frozen classes."""
    return MappingProxyType(dict(mapping))


class NetworkFileError(ValueError):
    """A file that is not a network of the expected kind (callers raise their own error)."""


def as_layers(layers: Sequence[tuple[Any, Any]]) -> Layers:
    """The layers as float64 arrays, checked to chain.

    Raises:
        NetworkFileError: A layer is not a matrix with a bias per output, or the layers
            do not chain.
    """
    checked = tuple((np.asarray(w, np.float64), np.asarray(b, np.float64)) for w, b in layers)
    if not checked:
        msg = "a network has at least one layer"
        raise NetworkFileError(msg)
    sizes = [weights.shape for weights, _ in checked]
    for (weights, bias), following in zip(checked, [*sizes[1:], None], strict=True):
        if weights.ndim != 2 or bias.shape != weights.shape[:1]:
            msg = f"a layer is a matrix and a bias per output, got {weights.shape}, {bias.shape}"
            raise NetworkFileError(msg)
        if following is not None and following[1] != weights.shape[0]:
            msg = f"layers do not chain: {weights.shape} then {following}"
            raise NetworkFileError(msg)
    return checked


def save_network(path: str | Path, header: Mapping[str, Any], layers: Layers) -> None:
    """Write ``layers`` and a JSON ``header`` to a compressed ``.npz`` file.

    The file is replaced in one step (`AtomicWriter`): a failed save leaves an earlier
    file at ``path`` whole.

    Raises:
        SaveError: The file cannot be written there.
    """
    arrays: dict[str, Any] = {"header": np.array(json.dumps(dict(header)))}
    for number, (weights, bias) in enumerate(layers):
        arrays[f"weights{number}"] = weights
        arrays[f"bias{number}"] = bias
    packed = io.BytesIO()  # a zip file wants to seek; the networks are small
    np.savez_compressed(packed, **arrays)
    with AtomicWriter(path, binary=True) as file:
        file.write(packed.getvalue())


def load_network(path: str | Path, kind: str, file_format: int) -> tuple[dict[str, Any], Layers]:
    """Read what `save_network` wrote: the header (of ``file_format``) and the layers.

    Raises:
        NetworkFileError: Not such a file, or a header of another format.
        OSError: The file cannot be read.
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            count = sum(1 for name in data.files if name.startswith("weights"))
            layers = [(data[f"weights{n}"], data[f"bias{n}"]) for n in range(count)]
    except (KeyError, ValueError, json.JSONDecodeError) as error:
        msg = f"{path} is not a {kind} file: {error}"
        raise NetworkFileError(msg) from None
    if not isinstance(header, dict) or header.get("format") != file_format or not layers:
        msg = f"{path} is not a {kind} file of format {file_format}"
        raise NetworkFileError(msg)
    return header, as_layers(layers)


GameNetwork = tuple[str, int, dict[str, Any], Layers, dict[str, Any]]
"""A network's game and history, as its file keeps them: variant, players, options, layers,
about."""


def save_game_network(path: str | Path, file_format: int, network: GameNetwork) -> None:
    """Write a network made for one game, with its game and history in the header."""
    variant, players, options, layers, about = network
    header = {
        "format": file_format,
        "variant": variant,
        "players": players,
        "options": dict(options),
        "about": dict(about),
    }
    save_network(path, header, layers)


def load_game_network(path: str | Path, kind: str, file_format: int) -> GameNetwork:
    """Read what `save_game_network` wrote.

    Raises:
        NetworkFileError: Not such a file, or a header of another format.
        OSError: The file cannot be read.
    """
    header, layers = load_network(path, kind, file_format)
    try:
        return (
            header["variant"],
            header["players"],
            header["options"],
            layers,
            header["about"],
        )
    except KeyError as error:
        msg = f"{path} is not a {kind} file: its header has no {error}"
        raise NetworkFileError(msg) from None
