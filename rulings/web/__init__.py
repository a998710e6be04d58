"""The Flask app: a cross-linked site and a JSON API over the current build."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from flask import Flask, g, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from ..errors import RulingsError, StoreError
from ..graph.answers import Unanswerable
from ..settings import Settings
from .state import Current

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'; manifest-src 'self'"
)


def package_folder(package: str) -> str:
    """The folder an installed data package (``rulings.templates``) is in, found without importing it.

    In a wheel it is inside ``rulings/``; in an editable install, the repository's top-level folder.
    """
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise RuntimeError(f"{package} is not installed: reinstall rulings")
    return str(Path(spec.origin).parent)


def create_app(settings: Settings | None = None, *, static_export: bool = False) -> Flask:
    settings = settings or Settings.resolve()
    app = Flask(
        __name__,
        template_folder=package_folder("rulings.templates"),
        static_folder=package_folder("rulings.static"),
        static_url_path="/static",
    )
    app.config.update(
        SETTINGS=settings,
        STATIC_EXPORT=static_export,
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=64 * 1024,
        TEMPLATES_AUTO_RELOAD=False,
        BASE_URL=os.environ.get("RULINGS_BASE_URL") or None,
    )
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.extensions["rulings"] = Current(Path(settings.store))

    from . import api, site

    app.register_blueprint(site.bp)
    app.register_blueprint(api.bp, url_prefix="/api")

    @app.before_request
    def open_build():
        g.loaded = app.extensions["rulings"].get()

    @app.after_request
    def security_headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        return response

    def wants_json() -> bool:
        return request.path.startswith("/api/") or request.path == "/api"

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if error.response is not None:  # abort(redirect(...)): the response is the answer
            return error.response
        message = error.description or "Not found"
        if wants_json():
            return jsonify({"status": "error", "code": error.code, "message": message}), error.code
        return render_template("error.html", code=error.code, message=message), error.code

    @app.errorhandler(Unanswerable)
    def negative_answer(error: Unanswerable):  # e.g. a version the game never had
        if wants_json():
            return jsonify(error.payload), 404
        return render_template("error.html", code=404, message=error.payload["message"]), 404

    @app.errorhandler(StoreError)
    def no_store(error: StoreError):
        if wants_json():
            return jsonify({"status": "error", "code": 503, "message": str(error)}), 503
        return render_template("error.html", code=503, message=str(error)), 503

    @app.errorhandler(RulingsError)
    def rulings_error(error: RulingsError):
        code = 404 if error.exit_code == 1 else 400
        if wants_json():
            return jsonify({"status": "error", "code": code, "message": str(error)}), code
        return render_template("error.html", code=code, message=str(error)), code

    @app.errorhandler(Exception)
    def unexpected(error: Exception):  # never a traceback to the client
        app.logger.exception("unhandled error on %s", request.path)
        if wants_json():
            return jsonify({"status": "error", "code": 500, "message": "internal error"}), 500
        return render_template("error.html", code=500, message="Something went wrong."), 500

    return app
