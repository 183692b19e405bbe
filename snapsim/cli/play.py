"""`snapsim play`: a seat at the terminal against the built-in players."""

from __future__ import annotations

from ..sim.checks import whole
from .common import add_move_timeout, game_help


def _play(args) -> int:
    from ..play import check_save_file, load, new_session, play, preparing
    from ..play.wins import Budget

    budget = Budget.of(args.hint_budget, args.hint_rollouts)

    if args.save:
        check_save_file(args.save)
    with preparing(args.game, print):
        if args.load:
            session = load(args.load, args.game, args.opponents)
        else:
            whole(args.seed, "--seed", 0)
            session = new_session(args.game, args.players, args.seat,
                                  args.opponents or "greedy", args.seed, args.hints)
        if args.hints:
            session.hints = True
        session.budget = budget
        return play(session, save_to=args.save or args.load)


def add(sub) -> None:
    p = sub.add_parser("play", help="play a seat at the terminal against the built-in players")
    p.add_argument("game", help=game_help())
    p.add_argument("--players", type=int, help="number of players (default: the game's usual "
                                               "count)")
    p.add_argument("--seat", type=int, default=1, help="your seat, 1 = P1")
    p.add_argument("--opponents",
                   help="the other seats: one policy spec for all or one per seat, "
                        "comma-separated (e.g. tuned-4p, search, module:object); "
                        "with --load, the saved game's own, which a saved Python agent needs "
                        "(default: greedy)")
    p.add_argument("--hints", action="store_true", help="show the numbers snapsim computes "
                                                        "for your seat at each decision")
    p.add_argument("--hint-budget", type=float, default=2.0, metavar="SECONDS",
                   help="the seconds a hint may take on one core, its exact numbers and "
                        "table included (default: 2; rollouts rank your moves by win chance "
                        "until it is spent)")
    p.add_argument("--hint-rollouts", type=int, metavar="N",
                   help="rank your moves from exactly N rollouts each instead, the same "
                        "numbers on any machine (default: none, the time budget decides)")
    p.add_argument("--seed", type=int, default=0, help="root seed: same seed, same game")
    saving = p.add_mutually_exclusive_group()
    saving.add_argument("--save", help="save the game to this file on quit or Ctrl-C (a new "
                                       "file or a saved game, never another file)")
    saving.add_argument("--load", help="continue a saved game (its settings are used)")
    add_move_timeout(p)
    p.set_defaults(run=_play)

