"""The bundled corpus: byte-identical documents and valid manifests."""

import hashlib

import pytest

from rulings.ingest.manifest import discover_games, load_manifest

from .conftest import CORPUS


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.needs_shared
def test_every_seed_is_in_the_corpus_byte_for_byte(seeds):
    corpus = {sha(p) for p in CORPUS.rglob("*.txt")}
    assert {sha(p) for p in seeds.iterdir()} <= corpus


def test_manifests_describe_the_three_games():
    games = {p.name: load_manifest(p) for p in discover_games(CORPUS)}
    assert set(games) == {"marvel-champions", "vs-system-2pcg", "sentinels-of-the-multiverse"}
    mc = games["marvel-champions"]
    assert "mc" in mc.aliases
    kinds = {d.kind for d in mc.documents}
    assert kinds == {"reference", "changelog", "player-aid"}
    reference = next(d for d in mc.documents if d.kind == "reference")
    assert reference.version == "1.1" and str(reference.date) == "2019-11-01"
    assert games["sentinels-of-the-multiverse"].documents[0].kind == "faq"
    assert games["vs-system-2pcg"].documents[0].kind == "rulebook"
