"""One error handler for the site and the API: JSON under /api, an HTML page elsewhere.

Every error reaches it: the service's own (``RulingsError``, with its status, message and HTTP
status), Flask's and Werkzeug's (404 for an unknown URL, 413 for a large body...) and, as a 500
that shows no detail, anything unexpected. No client ever sees a traceback.
"""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, g, jsonify, render_template, request
from werkzeug.exceptions import BadHost, HTTPException
from whoosh.searching import TimeLimit

from .. import deadline
from ..errors import Busy, RulingsError

PLAIN_TEXT = "text/plain; charset=utf-8"


def wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def error_response(http_status: int, payload: dict):
    """``payload`` (``{"status", "message", ...}``) as JSON with its ``code``, or as the error page."""
    if wants_json():
        return jsonify({"status": payload["status"], "code": http_status, **payload}), http_status
    return render_template("error.html", code=http_status, message=payload["message"], answer=payload), http_status


def handle(error: Exception):
    stopped = why_stopped(error)
    deadline.clear()  # the answer is an error page, made whatever time the request had left
    if isinstance(error, BadHost) and not wants_json():  # no page can be built for a Host that is no host name
        return (
            "400 Bad Request: the Host header is not a host name\n",
            400,
            {"Content-Type": "text/plain; charset=utf-8"},
        )
    if isinstance(error, HTTPException):
        if error.response is not None:  # abort(redirect(...)): the response is the answer
            return error.response
        return error_response(error.code or 500, {"status": "error", "message": error.description or "Not found"})
    if isinstance(error, RulingsError):
        response = error_response(error.http_status, error.to_dict())
        return (*response, {"Retry-After": str(error.retry_after)}) if isinstance(error, Busy) else response
    if stopped:
        return stopped_response(stopped)
    if current_app.extensions["rulings"].recheck(g.get("loaded")):  # its build's files were damaged under it
        message = "The build being served was damaged; the next request is answered from an intact one."
        return (*error_response(503, {"status": "error", "message": message}), {"Retry-After": "1"})
    current_app.logger.exception("unhandled error on %s", request.path)
    message = "internal error" if wants_json() else "Something went wrong."
    return error_response(500, {"status": "error", "message": message})


def why_stopped(error: Exception) -> str | None:
    """ "time" or "cpu" when the error is how the index (``TimeLimit``), SQLite (an interrupted query) or the
    service's own checks (``deadline.Expired``) stop work past this request's time limit or CPU allowance;
    None otherwise (any other error past the limit is still a fault, logged as one)."""
    if isinstance(error, deadline.Expired):
        return "cpu" if error.cpu else "time"
    interrupted = isinstance(error, sqlite3.OperationalError) and "interrupted" in str(error) and deadline.expired()
    if isinstance(error, TimeLimit) or interrupted:
        return "cpu" if deadline.past_cpu_allowance() else "time"
    return None


def stopped_response(why: str):
    """413 past the CPU allowance (the request asks for too much work), 503 past the time limit (try again)."""
    if why == "cpu":
        current_app.logger.warning("%s stopped past its CPU allowance", request.path)
        message = "This request needs more work than one request may make; send it in parts."
        return error_response(413, {"status": "error", "message": message})
    limit = current_app.config["TIME_LIMIT"]
    current_app.logger.warning("%s stopped after the %g s time limit", request.path, limit)
    message = f"This request needed more than the {limit:g} s one may take; try a shorter query."
    return (*error_response(503, {"status": "error", "message": message}), {"Retry-After": "1"})


def register(app: Flask) -> None:
    app.register_error_handler(Exception, handle)
