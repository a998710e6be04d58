"""The built graph through the CLI: terms, redirects, sub-definitions, slugs, stats, builds."""

import json
import os

import pytest

from rulings.build import build
from rulings.builds import current_build
from rulings.graph import ruling_rows, term_sheet
from rulings.graph.store import Store
from rulings.settings import Settings

from .conftest import CORPUS
from .test_reference_parser import GLOSSARY_SAMPLE


@pytest.fixture(scope="module")
def mc_terms(cli):
    data, code = cli.json("terms", "marvel-champions")
    assert code == 0
    return data


def by_name(terms):
    out = {}
    for term in terms:
        for name in [term["name"], *term["aliases"]]:
            out.setdefault(name.lower(), []).append(term)
    return out


def test_every_rr_entry_once_with_aliases(mc_terms):
    names = by_name(mc_terms)
    for heading in GLOSSARY_SAMPLE:
        assert len(names[heading.lower()]) == 1, heading
    assert names["card ability"][0]["name"] == "Ability"
    assert names["change form"][0]["name"] == "Form"
    assert "star icon" in names and "staricon" not in names
    assert all(set(t) >= {"name", "slug", "aliases", "redirect", "see_also", "versions", "url"} for t in mc_terms)


def test_terms_at_a_version(cli):
    at_11, _ = cli.json("terms", "mc", "--version", "1.1")
    assert len(at_11) == 139  # 138 headings, TOUGH, TOUGHNESS as two
    at_15, _ = cli.json("terms", "mc", "--version", "1.5")
    assert {"Hinder X", "Incite X"} <= {t["name"] for t in at_15} - {t["name"] for t in at_11}
    look = next(t for t in at_15 if t["slug"] == "look")  # changelog heading "Look, Looked-At"
    assert look["name"] == "Look" and look["aliases"] == ["Looked-At"]
    assert not any("," in t["name"] for t in at_15)


def test_no_phantom_terms(mc_terms):
    for term in mc_terms:
        assert not term["name"].lower().startswith(("if the", "q:", "when does"))
        assert len(term["name"]) > 1


def test_see_also_and_redirects_to_sub_definitions(mc_terms):
    names = by_name(mc_terms)
    assert {"Cancel", "Constant Ability"} <= set(names["ability"][0]["see_also"])
    for keyword in (
        "guard",
        "overkill",
        "peril",
        "quickstrike",
        "restricted",
        "retaliate",
        "surge",
        "toughness",
        "uses",
    ):
        term = names[keyword][0]
        assert term["redirect"] == "Keywords", keyword
        assert term["redirect_url"].startswith("/marvel-champions/terms/keywords#"), keyword
    assert names["tough"][0]["redirect"] == "Status Cards"
    assert names["tough"][0]["redirect_url"] == "/marvel-champions/terms/status-cards#tough"


@pytest.mark.parametrize(
    "name,parent,snippet",
    [
        ("Guard", "Keywords", "While any minions with this keyword are engaged"),
        ("Toughness", "Keywords", "place a tough status card on it"),
        ("Uses", "Keywords", "place X all-purpose counters"),
        ("Confused", "Status Cards", "discard the confused card instead"),
        ("Stunned", "Status Cards", "discard the stunned card instead"),
        ("Tough", "Status Cards", "prevent all of that damage and discard the tough status card"),
    ],
)
def test_names_resolve_to_their_definitions_as_of_11(cli, name, parent, snippet):
    data, code = cli.json("applies", "mc", name, "--version", "1.1")
    assert code == 0 and data["status"] == "ok"
    assert snippet in data["text"]
    assert f"/terms/{parent.lower().replace(' ', '-')}#" in data["url"]


def test_vs_system_and_sentinels_terms(cli):
    vs, _ = cli.json("terms", "vs-system-2pcg")
    names = {t["name"] for t in vs}
    assert {"+1/+1 and -1/-1 (Counters)", "Wound(s)", "Power Up", "Owner", "Super Strength"} <= names
    sotm, _ = cli.json("terms", "sotm")
    assert {"Immune", "Incapacitated", "Target"} <= {t["name"] for t in sotm}


def test_stats_json(cli):
    data, code = cli.json("stats")
    assert code == 0
    games = {g["slug"]: g for g in data["games"]}
    assert games["marvel-champions"]["versions"] == ["1.0", "1.1", "1.2", "1.3", "1.4", "1.4.2", "1.5"]
    assert games["marvel-champions"]["rulings"] == 13
    assert games["sentinels-of-the-multiverse"]["rulings"] > 190
    assert data["counts"]["terms"] > 400


def test_same_corpus_same_slugs(tmp_path, store):
    other = tmp_path / "store"
    build(Settings.resolve(CORPUS, other), progress=lambda _: None)
    again = Store(current_build(other))
    for game in store.games():
        mine = [(t.name, t.slug) for t in store.terms(game, ("entry", "keyword", "section"))]
        theirs = [(t.name, t.slug) for t in again.terms(again.game(game.slug), ("entry", "keyword", "section"))]
        assert mine == theirs
        assert [r["slug"] for r in ruling_rows.rulings(store, game)] == [
            r["slug"] for r in ruling_rows.rulings(again, again.game(game.slug))
        ]


def test_build_prints_counts_and_time(cli, tmp_path):
    result = cli("--store", str(tmp_path / "s"), "build")
    assert result.exit_code == 0
    assert "built 3 games" in result.output and " in " in result.output and " s " in result.output


def test_read_commands_build_when_store_missing(tmp_path, cli):
    from click.testing import CliRunner

    from rulings.cli import main

    env = {"RULINGS_STORE": str(tmp_path / "fresh"), "RULINGS_CORPUS": str(CORPUS)}
    result = CliRunner().invoke(main, ["terms", "vss", "--json"], env=env)
    assert result.exit_code == 0
    assert any(t["name"] == "AKA" for t in json.loads(result.output))
    assert (tmp_path / "fresh" / "current").is_symlink()


def test_stale_store_is_rebuilt(corpus_copy, tmp_path):
    from rulings.build import ensure_built, is_stale

    settings = Settings.resolve(corpus_copy, tmp_path / "s")
    first = ensure_built(settings, progress=lambda _: None)
    assert not is_stale(settings)
    toml = corpus_copy / "vs-system-2pcg" / "game.toml"
    toml.write_text(toml.read_text().replace('name = "Vs. System 2PCG"', 'name = "Vs. System"'))
    os.utime(toml, ns=(1, 10**18))
    assert is_stale(settings)
    second = ensure_built(settings, progress=lambda _: None)
    assert second != first
    assert Store(second).game("vs-system-2pcg").name == "Vs. System"


def test_cli_linkify_reads_stdin(cli):
    result = cli(
        "linkify",
        "mc",
        "--format",
        "markdown",
        "--base-url",
        "https://rules.example",
        input="Check [[quickstrike]] and [[dash@1.2]], not [[nonsense]].",
    )
    assert result.exit_code == 0
    assert result.stdout == (
        "Check [Quickstrike](https://rules.example/marvel-champions/terms/quickstrike) and "
        "[dash (v1.2)](https://rules.example/marvel-champions/v/1.2/terms/dash), "
        "not [[nonsense]]."
    )
    assert "no term for [[nonsense]]" in result.stderr
    bbcode = cli("linkify", "vss", "--format", "bbcode", "--base-url", "http://x", input="[[AKA|also known as]]")
    assert bbcode.stdout == "[url=http://x/vs-system-2pcg/terms/aka]also known as[/url]"


def test_versions_are_read_once_and_each_caller_gets_its_own_list(store):
    game = store.game("marvel-champions")
    first = store.versions(game)
    first.pop()  # a caller's list is its own
    again = store.versions(game)
    assert again == store._read_versions(game) and len(again) == len(first) + 1
    assert [v.label for v in again][:2] == ["1.0", "1.1"]


def test_referrers_are_the_other_terms_with_an_edge_to_a_term_by_name_then(store):
    """At each version, the terms with an edge holding then, each once, by the name it had then."""
    kinds = ("mentions", "see-also", "redirect")
    checked = 0
    for game in store.games():
        terms = {t.id: t for t in store.terms(game, ("entry", "keyword", "section", "rule"))}
        edges = store.q("SELECT src_id, dst_id, kind, since, until, src_name FROM edges WHERE game_id = ?", game.id)
        for version in store.versions(game):
            at = version.ordinal
            for term in terms.values():
                held: dict[int, set[str]] = {}
                for src, dst, kind, since, until, name in edges:
                    if dst == term.id and kind in kinds and src != term.id and since <= at and (until or at + 1) > at:
                        held.setdefault(src, set()).add(name)
                assert all(len(names) == 1 for names in held.values())  # one revision of a source at a time
                expected = sorted((min(names), src) for src, names in held.items())
                assert term_sheet.referrers(store, term, kinds, at) == [(terms[s].slug, name) for name, s in expected]
                checked += bool(held)
    assert checked > 50


def assert_sheets_read_as_the_single_reads(store):
    """Every term's sheet (one statement) holds what the single-purpose reads give, in their order."""
    kinds = ("mentions", "see-also", "redirect")
    seen = {"blocks": 0, "subdefs": 0, "referrers": 0, "rulings": 0, "names": 0, "revisions": 0}
    for game in store.games():
        for term in store.terms(game, ("entry", "keyword", "section", "rule")):
            statements: list[str] = []
            store.conn.set_trace_callback(statements.append)
            try:
                sheet = term_sheet.term_sheet(store, game, term.slug, kinds)
            finally:
                store.conn.set_trace_callback(None)
            assert len(statements) == 1 and sheet.term == term
            revisions = store.revisions(term)
            assert sheet.revisions == revisions and sheet.names == store.names(term)
            last = revisions[-1].ordinal
            assert sheet.referrers(last) == term_sheet.referrers(store, term, kinds, last)
            assert sheet.ruling_ids == [r["id"] for r in ruling_rows.rulings_about(store, term)]
            assert sheet.blocks == {r.id: store.blocks(r.id) for r in revisions}
            assert sheet.subdefs == {r.id: store.subdefs(r.id) for r in revisions}
            seen["revisions"] += len(revisions) > 1
            seen["names"] += len(sheet.names) > 1
            seen["blocks"] += any(len(b) > 1 for b in sheet.blocks.values())
            seen["subdefs"] += any(len(s) > 1 for s in sheet.subdefs.values())
            seen["referrers"] += len(sheet.referrers(last)) > 1
            seen["rulings"] += len(sheet.ruling_ids) > 1
    return seen


def test_a_term_sheet_reads_in_one_statement_what_the_single_reads_give(store):
    seen = assert_sheets_read_as_the_single_reads(store)
    assert all(count > 5 for count in seen.values()), seen  # every part ordered, somewhere, from several rows
    game = store.game("marvel-champions")
    alias = store.q("SELECT slug FROM slug_aliases WHERE game_id = ?", game.id)[0][0]
    assert term_sheet.term_sheet(store, game, alias, ()) is None and store.term_by_slug(game, alias)[0] is not None
    assert term_sheet.term_sheet(store, game, "no-such-term", ()) is None


@pytest.mark.needs_shared
def test_a_term_sheet_of_every_magic_rule_and_edition(magic_store):
    assert assert_sheets_read_as_the_single_reads(magic_store)["revisions"] > 200


def test_a_term_page_lists_what_refers_to_it_as_links(client, store):
    game = store.game("marvel-champions")
    term, _ = store.term_by_slug(game, "attack")
    listed = term_sheet.referrers(store, term, ("mentions", "see-also", "redirect"), store.versions(game)[-1].ordinal)
    html = client.get("/marvel-champions/terms/attack").get_data(as_text=True)
    section = html.split("<h2>Referenced by</h2>", 1)[1].split("</section>", 1)[0]
    links = [f'<li><a class="term" href="/marvel-champions/terms/{slug}">{name}</a></li>' for slug, name in listed]
    assert len(listed) > 5 and section == f'<ul class="inline">{"".join(links)}</ul>'
    api = client.get("/api/marvel-champions/terms/attack").get_json()
    assert api["referenced_by"] == [{"name": name, "slug": slug} for slug, name in listed]


def test_rulings_carry_their_cards_read_in_one_query(store):
    game = store.game("sentinels-of-the-multiverse")
    statements: list[str] = []
    store.conn.set_trace_callback(statements.append)
    try:
        rulings = ruling_rows.rulings(store, game)
    finally:
        store.conn.set_trace_callback(None)
    assert len(rulings) > 100 and len(statements) == 2  # the rulings, then the cards of all of them
    with_cards = 0
    for ruling in rulings:
        cards = store.q(
            "SELECT c.slug, c.name, c.kind, c.id FROM ruling_cards rc JOIN cards c ON c.id = rc.card_id "
            "WHERE rc.ruling_id = ? ORDER BY c.kind DESC, c.name",
            ruling["id"],
        )
        assert ruling["cards"] == [dict(slug=s, name=n, kind=k, id=i) for s, n, k, i in cards]
        with_cards += bool(cards)
    assert with_cards > 50
