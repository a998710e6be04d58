"""In-process render time of term pages (latest and pinned) through the Flask app."""

import random
from functools import partial

from common import ROOT, built_store, summary, timed

from rulings.graph import ruling_rows
from rulings.settings import Settings
from rulings.urls import urls as site
from rulings.web import create_app

store, build = built_store()
app = create_app(Settings.resolve(ROOT / "corpus", build.parent.parent))
client = app.test_client()
pages = []
for game in store.games():
    versions = [v.label for v in store.versions(game)]
    for term in store.terms(game):
        pages.append(site.term(game.slug, term.slug))
        pages.append(site.term(game.slug, term.slug, random.Random(term.slug).choice(versions)))
random.Random(1).shuffle(pages)
for url in pages:  # warm caches (linkers per version) once, as a running server would
    client.get(url)
samples = []
for url in pages[:600]:
    samples += timed(partial(client.get, url), 1)
print(summary("term page (latest + pinned)", samples))
rulings = [site.ruling(g.slug, r["slug"]) for g in store.games() for r in ruling_rows.rulings(store, g)]
print(summary("ruling page", [t for u in rulings[:200] for t in timed(partial(client.get, u), 1)]))
print(summary("game home", [t for g in store.games() for t in timed(partial(client.get, site.game(g.slug)), 20)]))
