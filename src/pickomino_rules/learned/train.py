"""Train a policy with sb3-contrib's MaskablePPO and save it as a numpy-only bot.

Run it as a program (it needs the ``train`` extra: sb3-contrib and PyTorch)::

    python -m pickomino_rules.learned.train --steps 5000000 --seed 1 --threads 2 --out ppo.npz

It trains one learning seat (seated at random each game) against a bot, with the shaped
``"own"`` reward (the change of the learner's lead in worms over its own turns), on many games
side by side: the batch engine's vector environment wherever the batch engine plays the rules
(every built-in variant), copies of
[`PickominoEnv`][pickomino_rules.envs.gymnasium.PickominoEnv] otherwise. Every
``--eval-every`` steps it measures the current policy against the opponent in fresh seeded
games, seats rotated, and prints the win rate with its 95% interval (the learning curve, also
written with ``--curve`` as CSV and drawn with ``--plot``). With ``--imitate BOT`` the network
first learns that bot's play (behaviour cloning, then DAgger rounds: `Imitation`), and the
reinforcement starts from there (``--steps 0``: none). The policy it saves is the last
one: a [`PolicyBot`][pickomino_rules.learned.PolicyBot] that plays with numpy alone, with the
command, seed, steps, time and versions in its ``about``.
"""

from __future__ import annotations

import csv
import platform
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from pickomino_rules.errors import MissingExtraError
from pickomino_rules.learned._programs import exit_without_extra, train_parser

try:
    import gymnasium
    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import Logger
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as error:  # an extra: say which, and how to add it here
    missing = MissingExtraError(f"training ({error.name} is missing)", "train")
    if __name__ == "__main__":  # run as a program: its help, or one line, never a traceback
        exit_without_extra(train_parser(), missing)
    raise missing from None

from pickomino_rules import __version__
from pickomino_rules.batch import BatchGames, BatchRulesError
from pickomino_rules.bots import BOTS, register_bot
from pickomino_rules.envs.gymnasium import PickominoEnv
from pickomino_rules.envs.gymnasium_vector import PickominoVectorEnv
from pickomino_rules.files import SaveError, check_save_target
from pickomino_rules.learned import PolicyBot
from pickomino_rules.learned._imitation import Decisions, teacher_decisions
from pickomino_rules.simulation import simulate

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Iterator, Mapping, Sequence

    from pickomino_rules.simulation import Engine

__all__ = [
    "DEFAULT_ENVS",
    "HYPERPARAMETERS",
    "Checkpoint",
    "Imitation",
    "evaluate",
    "main",
    "policy_of",
    "train",
]

_EVAL_NAME = "ppo-in-training"

_COMMON: dict[str, Any] = {
    "n_epochs": 4,
    "learning_rate": 1e-3,
    "gamma": 0.99,
    "ent_coef": 0.0,
    "policy_kwargs": {"net_arch": [128, 128]},
}
HYPERPARAMETERS: dict[Engine, dict[str, Any]] = {
    "batch": _COMMON | {"n_steps": 64, "batch_size": 2048},
    "reference": _COMMON | {"n_steps": 256, "batch_size": 256},
}
"""MaskablePPO's settings for each engine: sb3's defaults but for larger batches, four
epochs, a higher learning rate (falling linearly to 0) and no entropy bonus, which learned
fastest in our trials. ``n_steps`` is per game side by side: 64 x 256 games on the batch
engine, 256 x 8 games on the reference engine."""

DEFAULT_ENVS: dict[Engine, int] = {"batch": 256, "reference": 8}
"""Games played side by side on each engine."""


class _Scaled(gymnasium.ObservationWrapper[Any, Any, Any]):
    """Observations divided by their upper bounds, so every input lies in [0, 1]."""

    def __init__(self, env: PickominoEnv) -> None:
        super().__init__(env)
        self._high = env.encoding.observation_high
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, self._high.shape, np.float32)

    def observation(self, observation: Any) -> Any:  # noqa: ANN401 (gymnasium's signature)
        return (observation / self._high).astype(np.float32)

    def action_masks(self) -> Any:  # noqa: ANN401 (the mask MaskablePPO asks for)
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


class _BatchGames(VecEnv):
    """The batch engine's vector environment as stable-baselines3 steps it.

    sb3 starts a finished game again within the step that ends it (the last observation goes
    in ``infos[i]["terminal_observation"]``); gymnasium's vector environment does it at the
    next step. This adapter starts the finished rows again at once, with ``reset_mask``.
    """

    def __init__(self, env: PickominoVectorEnv, seed: int) -> None:
        self.env, self._seed = env, seed
        self._high = env.encoding.observation_high
        space = gymnasium.spaces.Box(0.0, 1.0, self._high.shape, np.float32)
        super().__init__(env.num_envs, space, env.single_action_space)
        self._actions = np.zeros(env.num_envs, dtype=np.int64)

    def reset(self) -> Any:  # noqa: ANN401 (sb3's signature)
        observations, _ = self.env.reset(seed=self._seed)
        self._seed += 1  # a later reset starts other games
        return self._scaled(observations)

    def step_async(self, actions: Any) -> None:  # noqa: ANN401 (sb3's signature)
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self) -> Any:  # noqa: ANN401 (sb3's signature)
        observations, rewards, terminated, truncated, _ = self.env.step(self._actions)
        done = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for row in np.flatnonzero(done):
            infos[row]["terminal_observation"] = self._scaled(observations[row])
            infos[row]["TimeLimit.truncated"] = bool(truncated[row] and not terminated[row])
        if done.any():
            observations, _ = self.env.reset(options={"reset_mask": done})
        return self._scaled(observations), rewards.astype(np.float32), done, infos

    def _scaled(self, observations: Any) -> Any:  # noqa: ANN401 (arrays)
        return (observations / self._high).astype(np.float32)

    def close(self) -> None:
        self.env.close()

    def env_method(  # masks are all it serves
        self,
        method_name: str,
        *method_args: Any,  # noqa: ANN401, ARG002 (sb3's signature)
        indices: Any = None,  # noqa: ANN401, ARG002
        **method_kwargs: Any,  # noqa: ANN401, ARG002
    ) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(method_name)
        return list(self.env.action_masks().astype(bool))

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:  # noqa: ANN401, ARG002
        if attr_name in {"action_masks", "render_mode"}:
            return [getattr(self, attr_name, None)] * self.num_envs
        raise AttributeError(attr_name)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:  # noqa: ANN401, ARG002
        raise AttributeError(attr_name)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:  # noqa: ANN401, ARG002
        return [False] * self.num_envs

    def action_masks(self) -> Any:  # noqa: ANN401 (the masks MaskablePPO asks for)
        return self.env.action_masks().astype(bool)


def _games(  # noqa: PLR0913 (a vector environment's settings)
    engine: Engine, variant: str, players: int, *, opponent: str, envs: int, seed: int
) -> VecEnv:
    """``envs`` games side by side against ``opponent``: the learner at a random seat."""
    if engine == "batch":
        vector = PickominoVectorEnv(
            envs, players, variant=variant, opponents=opponent, seat=None, reward="own"
        )
        return _BatchGames(vector, seed)

    def make() -> _Scaled:
        return _Scaled(PickominoEnv(variant, players, opponents=opponent, seat=None, reward="own"))

    return make_vec_env(make, n_envs=envs, seed=seed)


@attrs.frozen
class Imitation:
    """Start the network from a teacher's play: behaviour cloning, then DAgger rounds.

    Reinforcement alone can settle on a poor habit first (in 2-player extended the classic
    recipe learned to take a grilled worm a turn and nothing else). Cloning a stronger bot
    first gives it a sound start: ``games`` games of the teacher against the opponent are
    recorded, seats rotated,
    the policy network learns the teacher's choices (cross-entropy over the legal actions,
    Adam, ``epochs`` passes); then each of ``rounds`` DAgger rounds plays ``games`` games with
    the network itself, records the teacher's choice at the states the network reaches, and
    trains again on everything recorded.

    Attributes:
        teacher: The registered bot to imitate.
        games: Games recorded for the start and in each round.
        rounds: DAgger rounds after the start.
        epochs: Passes over the record after each.
        jobs: Processes playing the games.
    """

    teacher: str = attrs.field(validator=attrs.validators.instance_of(str))
    games: int = attrs.field(default=600, validator=attrs.validators.ge(1))
    rounds: int = attrs.field(default=2, validator=attrs.validators.ge(0))
    epochs: int = attrs.field(default=8, validator=attrs.validators.ge(1))
    jobs: int = attrs.field(default=1, validator=attrs.validators.ge(1))

    def clone_into(  # noqa: PLR0913, PLR0917 (the run's game)
        self,
        model: MaskablePPO,
        sample: PickominoEnv,
        variant: str,
        players: int,
        opponent: str,
        seed: int,
    ) -> Iterator[dict[str, Any]]:
        """Train ``model``'s policy round by round; yields what was recorded so far."""
        policy: Any = model.policy
        optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
        record: list[Decisions] = []
        for round_ in range(1 + self.rounds):
            player = None if round_ == 0 else policy_of(model, sample, {})
            record.append(
                teacher_decisions(
                    variant,
                    players,
                    teacher=self.teacher,
                    opponent=opponent,
                    games=self.games,
                    seed=seed * 7_919 + round_,
                    player=player,
                    jobs=self.jobs,
                )
            )
            accuracy = _clone(policy, optimizer, record, self.epochs, seed)
            yield {
                "teacher": self.teacher,
                "rounds": round_,
                "games": self.games * (round_ + 1),
                "decisions": sum(len(part) for part in record),
                "accuracy": round(accuracy, 4),
            }


def _clone(
    policy: Any,  # noqa: ANN401 (sb3's torch module)
    optimizer: torch.optim.Optimizer,
    record: Sequence[Decisions],
    epochs: int,
    seed: int,
) -> float:
    """Fit the policy to the recorded choices; the share it chose as the teacher, last pass."""
    observations = torch.as_tensor(np.concatenate([part.observations for part in record]))
    masks = np.concatenate([part.masks for part in record])
    actions = torch.as_tensor(np.concatenate([part.actions for part in record]))
    order = torch.Generator().manual_seed(seed)
    right = 0
    for _ in range(epochs):
        right = 0
        for batch in torch.split(torch.randperm(len(actions), generator=order), 1024):
            chosen = policy.get_distribution(observations[batch], action_masks=masks[batch.numpy()])
            loss = -chosen.log_prob(actions[batch]).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            right += int((chosen.distribution.probs.argmax(1) == actions[batch]).sum())
    return right / max(1, len(actions))


def _default_engine(variant: str, players: int) -> Engine:
    """The batch engine where it plays the rules, the reference engine elsewhere."""
    try:
        BatchGames(1, players, variant=variant)
    except BatchRulesError:
        return "reference"
    return "batch"


def policy_of(model: MaskablePPO, env: PickominoEnv, about: dict[str, Any]) -> PolicyBot:
    """The numpy twin of ``model``'s policy network (its actor: hidden layers, then logits)."""
    policy: Any = model.policy  # torch modules: typed loosely by stable-baselines3
    linear = [
        layer for layer in policy.mlp_extractor.policy_net if isinstance(layer, torch.nn.Linear)
    ]
    layers = [
        (layer.weight.detach().cpu().numpy(), layer.bias.detach().cpu().numpy())
        for layer in [*linear, policy.action_net]
    ]
    rules = env.rules
    return PolicyBot.of(rules.name, env.encoding.players, dict(rules.options), layers, about)


class Checkpoint:
    """One point of the learning curve: steps, seconds, and the win rate against the opponent."""

    def __init__(self, steps: int, seconds: float, games: int, wins: float) -> None:
        self.steps, self.seconds, self.games, self.wins = steps, seconds, games, wins

    @property
    def win_rate(self) -> float:
        """Share of the evaluation games won."""
        return self.wins / self.games

    def interval(self) -> tuple[float, float]:
        """The win rate's 95% Wilson interval."""
        from pickomino_rules.simulation import wilson_interval  # noqa: PLC0415

        return wilson_interval(self.wins, self.games)


def evaluate(bot: PolicyBot, opponent: str, games: int, seed: int, jobs: int = 1) -> float:
    """Games won by ``bot`` against ``opponent`` (shared wins in part), seats rotated."""
    # registered by name for simulate (and its forked workers) for these games only: a
    # process that trains, then lists or plays bots, must find what it had under that name
    before = BOTS.get(_EVAL_NAME)
    register_bot(_EVAL_NAME, bot, replace=True)
    try:
        outcome = simulate(
            bot.variant,
            bot.players,
            bots=[_EVAL_NAME, opponent],
            games=games,
            seed=seed,
            options=bot.options,
            jobs=jobs,
        )
    finally:
        if before is None:
            del BOTS[_EVAL_NAME]
        else:
            BOTS[_EVAL_NAME] = before
    return float(outcome.wins[0])


def train(  # noqa: PLR0913 (a training run's settings)
    *,
    variant: str = "classic",
    players: int = 2,
    opponent: str = "greedy",
    steps: int = 5_000_000,
    seed: int = 1,
    engine: Engine | None = None,
    envs: int | None = None,
    eval_every: int = 500_000,
    eval_games: int = 400,
    hyperparameters: Mapping[str, Any] | None = None,
    imitation: Imitation | None = None,
    about: dict[str, Any] | None = None,
    report: Callable[[Checkpoint], None] | None = None,
) -> tuple[PolicyBot, list[Checkpoint]]:
    """Train MaskablePPO for ``steps`` learner decisions; the policy and its learning curve.

    Args:
        variant: The variant to learn.
        players: Players per game.
        opponent: The bot every other seat plays (any registered bot).
        steps: The budget: learner decisions, all games together.
        seed: Seeds PyTorch, the games and the evaluations.
        engine: ``"batch"`` (the default wherever the batch engine plays the rules: every
            built-in variant): the games move together on the batch engine;
            ``"reference"``: copies of the gymnasium environment.
        envs: Games side by side (`DEFAULT_ENVS` by default).
        eval_every: Steps between two measures of the policy against ``opponent``.
        eval_games: Games of each measure, seats rotated.
        hyperparameters: Any of ``MaskablePPO``'s arguments, over `HYPERPARAMETERS`.
        imitation: Clone a teacher's play first (see `Imitation`); then ``steps`` of
            reinforcement (0: none).
        about: Recorded in the policy's ``about``.
        report: Called with each point of the learning curve.

    Raises:
        BatchRulesError: The batch engine asked for rules it does not play (a module
            without batch twins).
    """
    chosen: Engine = engine or _default_engine(variant, players)
    torch.manual_seed(seed)
    began = time.perf_counter()
    count = envs or DEFAULT_ENVS[chosen]
    vector = _games(chosen, variant, players, opponent=opponent, envs=count, seed=seed)
    settings = HYPERPARAMETERS[chosen] | dict(hyperparameters or {})
    rate = settings.pop("learning_rate")

    def decaying(left: float) -> float:  # sb3 passes the share of training left, 1 to 0
        return float(rate) * left

    model = MaskablePPO(
        "MlpPolicy", vector, learning_rate=decaying, seed=seed, device="cpu", **settings
    )
    # sb3's default logger makes a folder in the temporary directory on every run, and we
    # log nothing there: the learning curve is ours
    model.set_logger(Logger(folder=None, output_formats=[]))
    sample = PickominoEnv(variant, players, opponents=opponent)
    curve: list[Checkpoint] = []
    details = dict(about or {}) | {"engine": chosen}

    def measure() -> None:
        bot = policy_of(model, sample, details)
        # evaluation games are seeded apart from training, and differ at every checkpoint
        wins = evaluate(bot, opponent, eval_games, seed=seed * 1_000_003 + len(curve))
        point = Checkpoint(model.num_timesteps, time.perf_counter() - began, eval_games, wins)
        curve.append(point)
        if report is not None:
            report(point)

    if imitation is not None:
        for played in imitation.clone_into(model, sample, variant, players, opponent, seed):
            details |= {"imitation": played}
            measure()
    while model.num_timesteps < steps:
        model.learn(min(eval_every, steps - model.num_timesteps), reset_num_timesteps=False)
        measure()
    details |= {"steps": model.num_timesteps, "seconds": round(time.perf_counter() - began)}
    return policy_of(model, sample, details), curve


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = train_parser()
    arguments = parser.parse_args(argv)
    names = ["players", "envs", "eval_every", "eval_games", "final_games", "threads", "jobs"]
    names += ["imitate_games", "imitate_epochs"]
    for name in names:
        if getattr(arguments, name) is not None and getattr(arguments, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if arguments.learning_rate is not None and not 0 < arguments.learning_rate < 1:
        parser.error("--learning-rate must be between 0 and 1")
    if arguments.imitate_rounds < 0:
        parser.error("--imitate-rounds must be at least 0")
    if arguments.steps < (0 if arguments.imitate else 1):
        parser.error("--steps must be at least 1 (0 with --imitate)")
    return arguments


def main(argv: Sequence[str] | None = None) -> None:
    """The program: train, report the curve, measure the final policy, save it."""
    arguments = _arguments(argv)
    try:  # the files it will write, checked before hours of training
        for target in (arguments.out, arguments.curve, arguments.plot):
            if target:
                check_save_target(target)
    except SaveError as error:
        sys.exit(f"error: {error}")
    torch.set_num_threads(arguments.threads)
    command = "python -m pickomino_rules.learned.train " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    about = {
        "command": command,
        "seed": arguments.seed,
        "opponent": arguments.opponent,
        "algorithm": _algorithm(arguments),
        "versions": {
            "pickomino_rules": __version__,
            "sb3-contrib": version("sb3-contrib"),
            "torch": torch.__version__,
            "python": platform.python_version(),
        },
    }

    def report(point: Checkpoint) -> None:
        low, high = point.interval()
        print(  # noqa: T201 (the program's output)
            f"{point.steps:>11,} steps {point.seconds:6.0f} s  win rate against "
            f"{arguments.opponent}: {point.win_rate:.1%} ({low:.1%}-{high:.1%})",
            flush=True,
        )

    try:
        bot, curve = train(
            variant=arguments.variant,
            players=arguments.players,
            opponent=arguments.opponent,
            steps=arguments.steps,
            seed=arguments.seed,
            engine=arguments.engine,
            envs=arguments.envs,
            eval_every=arguments.eval_every,
            eval_games=arguments.eval_games,
            hyperparameters=None
            if arguments.learning_rate is None
            else {"learning_rate": arguments.learning_rate},
            imitation=None
            if arguments.imitate is None
            else Imitation(
                arguments.imitate,
                arguments.imitate_games,
                arguments.imitate_rounds,
                arguments.imitate_epochs,
                arguments.jobs,
            ),
            about=about,
            report=report,
        )
    except (ValueError, LookupError) as error:
        sys.exit(f"error: {error}")
    wins = evaluate(bot, arguments.opponent, arguments.final_games, seed=arguments.seed + 1)
    final = Checkpoint(curve[-1].steps, curve[-1].seconds, arguments.final_games, wins)
    low, high = final.interval()
    bot = PolicyBot.of(
        bot.variant,
        bot.players,
        bot.options,
        bot.layers,
        dict(bot.about)
        | {"final": {"games": final.games, "win_rate": final.win_rate, "interval": [low, high]}},
    )
    try:
        bot.save(arguments.out)
    except SaveError as error:  # it was writable at the start; a full disk, say
        sys.exit(f"error: {error}")
    print(  # noqa: T201 (the program's output)
        f"final: {final.win_rate:.1%} ({low:.1%}-{high:.1%}) of {final.games} games against "
        f"{arguments.opponent}, seats rotated; policy saved to {arguments.out}"
    )
    if arguments.curve:
        _write_curve(arguments.curve, curve)
    if arguments.plot:
        _plot_curve(arguments.plot, curve, arguments)


def _algorithm(arguments: argparse.Namespace) -> str:
    """How the policy learns, as its ``about`` says."""
    ppo = "MaskablePPO (sb3-contrib)"
    if arguments.imitate is None:
        return ppo
    cloned = (
        f"imitation of {arguments.imitate}: behaviour cloning, "
        f"then {arguments.imitate_rounds} DAgger rounds (PyTorch)"
    )
    return cloned if arguments.steps == 0 else f"{cloned}, then {ppo}"


def _write_curve(path: str, curve: Sequence[Checkpoint]) -> None:
    with Path(path).open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["steps", "seconds", "games", "wins", "win_rate", "low", "high"])
        for point in curve:
            low, high = point.interval()
            rates = [round(value, 4) for value in (point.win_rate, low, high)]
            writer.writerow([point.steps, round(point.seconds, 1), point.games, point.wins, *rates])


def _plot_curve(path: str, curve: Sequence[Checkpoint], arguments: argparse.Namespace) -> None:
    import matplotlib as mpl  # noqa: PLC0415 (the plot extra, only when asked)

    mpl.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    figure, axes = plt.subplots(figsize=(7, 4), constrained_layout=True)
    minutes = [point.seconds / 60 for point in curve]
    rates = [point.win_rate for point in curve]
    lows, highs = zip(*(point.interval() for point in curve), strict=True)
    axes.fill_between(minutes, lows, highs, alpha=0.25, label="95% interval")
    axes.plot(minutes, rates, marker="o", label=f"win rate against {arguments.opponent}")
    axes.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="even")
    axes.set_xlabel("training time (minutes, evaluations included)")
    axes.set_ylabel("share of games won")
    axes.set_ylim(0, 1)
    axes.legend(loc="lower right")
    game = f"{arguments.players}-player {arguments.variant}"
    axes.set_title(f"MaskablePPO learning Pickomino ({game})")
    figure.savefig(path)
    plt.close(figure)


if __name__ == "__main__":
    main()
