"""Every ``/<game>/...`` route resolves its game once, before the view runs (Flask's URL processors).

The view finds the game in ``context.game()``; ``url_for`` for another page of the same game
needs no ``game=``; on the site, a game alias (``/mc/...``) redirects permanently to the slug.
"""

from __future__ import annotations

from flask import Blueprint, current_app, g, redirect, request, url_for

from .lookup import game_or_404


def register(bp: Blueprint, *, redirect_aliases: bool) -> None:
    bp.url_value_preprocessor(_pull_game)
    bp.before_request(_resolve_game_and_redirect if redirect_aliases else _resolve_game)
    bp.url_defaults(_add_game)


def _pull_game(endpoint: str | None, values: dict | None) -> None:
    g.game_asked = values.pop("game", None) if values else None


def _resolve_game() -> None:
    if g.game_asked is not None:
        g.game = game_or_404(g.game_asked)


def _resolve_game_and_redirect():
    _resolve_game()
    if g.game_asked is not None and g.game_asked != g.game.slug and request.method == "GET":
        args = request.view_args
        query = {k: v for k, v in request.args.to_dict(flat=False).items() if k != "game" and k not in args}
        return redirect(url_for(request.endpoint, **args, **query), code=301)
    return None


def _add_game(endpoint: str, values: dict) -> None:
    if "game" not in values and "game" in g and current_app.url_map.is_endpoint_expecting(endpoint, "game"):
        values["game"] = g.game.slug
