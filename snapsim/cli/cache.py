"""`snapsim cache`: what the cache of finished runs holds, and emptying it."""

from __future__ import annotations

from .common import Parser


def _cache(args) -> None:
    from ..errors import InputError
    from ..sim import cache

    where = cache.cache_dir()
    if where.exists() and not where.is_dir():
        raise InputError(f"{cache.DIR_ENV} names {where}, which is not a folder (runs are "
                         "played uncached): point it at a folder, or unset it")
    if args.kind == "clear":
        print(f"removed {cache.clear()} cached runs from {cache.cache_dir()}")
        return
    got = cache.info()
    print(f"{got['runs']} cached runs, {got['bytes'] / 2**20:.1f} MB of "
          f"{got['limit_bytes'] / 2**20:,.0f} MB ({cache.SIZE_ENV}), in {got['dir']} "
          f"({cache.DIR_ENV} moves it)")


def add(sub) -> None:
    p = sub.add_parser("cache", help="the cache of finished runs that report, compare and "
                                     "rebalance reuse: its size, or empty it")
    kinds = p.add_subparsers(dest="kind", required=True, parser_class=Parser)
    kinds.add_parser("info", help="where the cache is, its runs and size").set_defaults(
        run=_cache)
    kinds.add_parser("clear", help="remove every cached run").set_defaults(run=_cache)
