-- The versioned glossary graph. One file per build; read-only once built.

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    aliases TEXT NOT NULL DEFAULT '[]',         -- JSON list
    vocabulary TEXT NOT NULL DEFAULT '{}',      -- JSON: what players say -> rules words (search expansions)
    links TEXT NOT NULL DEFAULT '{}',           -- JSON: {"stop": [...]} names linked only where written as names
    variant_words TEXT NOT NULL DEFAULT '[]'    -- JSON: heading words marking a variant's rules (search)
);

CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    slug TEXT NOT NULL,
    file TEXT NOT NULL,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    version TEXT,
    date TEXT,
    official INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    encoding TEXT NOT NULL,
    parser TEXT NOT NULL,
    lines INTEGER NOT NULL,
    UNIQUE (game_id, slug)
);

CREATE TABLE versions (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    label TEXT NOT NULL,
    date TEXT,
    parent TEXT,
    ordinal INTEGER NOT NULL,
    document_id INTEGER REFERENCES documents(id),
    line INTEGER,
    notes TEXT NOT NULL DEFAULT '[]',
    UNIQUE (game_id, label)
);

CREATE TABLE terms (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    slug TEXT NOT NULL,
    name TEXT NOT NULL,                      -- current display name
    kind TEXT NOT NULL,                      -- entry | keyword | section | rule
    number TEXT,                             -- a numbered rule or section: its number in the latest edition having it
    path TEXT NOT NULL DEFAULT '[]',         -- enclosing sections, JSON list
    document_id INTEGER NOT NULL REFERENCES documents(id),
    line INTEGER NOT NULL,
    lineage TEXT NOT NULL,
    UNIQUE (game_id, slug)
);
CREATE INDEX terms_number ON terms(game_id, number);

-- Every name a term answers to. rank: lower wins when names collide.
CREATE TABLE term_names (
    term_id INTEGER NOT NULL REFERENCES terms(id),
    name TEXT NOT NULL,
    key TEXT NOT NULL,
    how TEXT NOT NULL,                       -- name | alias | former | spelling
    rank INTEGER NOT NULL,
    since INTEGER NOT NULL DEFAULT 0         -- ordinal of the version the term first went by this name
);
CREATE INDEX term_names_key ON term_names(key);
CREATE INDEX term_names_term ON term_names(term_id);

-- Search as you type (index/completion.py): every name worth completing, under its folded words and
-- under each later word ("villain phase", "phase"), for range scans by prefix across games or in one.
CREATE TABLE completions (
    key TEXT NOT NULL,
    game TEXT NOT NULL,                      -- the game's slug
    slug TEXT NOT NULL,                      -- the term's slug
    term_id INTEGER NOT NULL REFERENCES terms(id),
    PRIMARY KEY (key, game, slug)
) WITHOUT ROWID;
CREATE INDEX completions_game ON completions(game, key, slug);

-- Other slugs that lead to a term (aliases, former names): links never rot.
CREATE TABLE slug_aliases (
    game_id INTEGER NOT NULL REFERENCES games(id),
    slug TEXT NOT NULL,
    term_id INTEGER NOT NULL REFERENCES terms(id),
    PRIMARY KEY (game_id, slug)
);

CREATE TABLE revisions (
    id INTEGER PRIMARY KEY,
    term_id INTEGER NOT NULL REFERENCES terms(id),
    version_id INTEGER NOT NULL REFERENCES versions(id),
    ordinal INTEGER NOT NULL,                -- the version's ordinal, for range queries
    name TEXT NOT NULL,                      -- display name as of this version
    text TEXT NOT NULL,                      -- markdown (the blocks joined)
    summary TEXT NOT NULL,                   -- its opening in plain words, for a page's meta description
    change TEXT NOT NULL,                    -- introduced | amended | replaced | patched | reworked | removed
    complete INTEGER NOT NULL,               -- 0: the exact text of this version cannot be vouched for
    inferred INTEGER NOT NULL DEFAULT 0,     -- 1: no document dates the change; it happened at the latest here
    source TEXT NOT NULL,                    -- JSON: document, title, file, line, page...
    see_also TEXT NOT NULL DEFAULT '[]',
    redirect TEXT NOT NULL DEFAULT '[]',
    notes TEXT NOT NULL DEFAULT '[]',
    supersedes_id INTEGER REFERENCES revisions(id),
    number TEXT,                             -- the number this version prints a numbered rule or section under
    UNIQUE (term_id, version_id)
);
CREATE INDEX revisions_number ON revisions(number) WHERE number IS NOT NULL;

-- A revision's text as blocks (paragraphs, bullets, steps, numbered rules) with their anchors.
CREATE TABLE blocks (
    revision_id INTEGER NOT NULL REFERENCES revisions(id),
    position INTEGER NOT NULL,
    anchor TEXT NOT NULL,                    -- carried across versions (graph/anchors.py)
    kind TEXT NOT NULL,                      -- para | bullet | step | rule
    depth INTEGER NOT NULL DEFAULT 0,
    number TEXT,                             -- a numbered rule's number ("702.19b")
    thread TEXT,                             -- a numbered block's lineage in its term, whatever its number
    text TEXT NOT NULL,
    inline TEXT,                             -- the text prepared for pages (graph/inline.py), JSON
    inline_cased TEXT,                       -- the same in sentence case, for a revision written in ALL CAPS
    PRIMARY KEY (revision_id, position)
);
CREATE INDEX blocks_number ON blocks(number) WHERE number IS NOT NULL;

-- The versioned terms in force at each version, in document order (the whole document as it stood).
CREATE TABLE contents (
    version_id INTEGER NOT NULL REFERENCES versions(id),
    position INTEGER NOT NULL,
    term_id INTEGER NOT NULL REFERENCES terms(id),
    PRIMARY KEY (version_id, position)
);

CREATE TABLE subdefs (
    id INTEGER PRIMARY KEY,
    revision_id INTEGER NOT NULL REFERENCES revisions(id),
    term_id INTEGER NOT NULL REFERENCES terms(id),
    name TEXT NOT NULL,
    key TEXT NOT NULL,
    anchor TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX subdefs_key ON subdefs(key);
CREATE INDEX subdefs_term ON subdefs(term_id);
CREATE INDEX subdefs_revision ON subdefs(revision_id);  -- a revision's sub-definitions (pages, the index)

-- see-also | redirect | part-of | mentions | cites (a rule number), between terms, over the versions they
-- hold for: ordinals [since, until), until NULL while the text that makes the edge is in force.
CREATE TABLE edges (
    game_id INTEGER NOT NULL REFERENCES games(id),
    src_id INTEGER NOT NULL REFERENCES terms(id),
    dst_id INTEGER NOT NULL REFERENCES terms(id),
    kind TEXT NOT NULL,
    anchor TEXT,
    since INTEGER NOT NULL,
    until INTEGER,
    src_name TEXT NOT NULL,                  -- what the source was called then
    PRIMARY KEY (src_id, dst_id, kind, since)
);
CREATE INDEX edges_dst ON edges(dst_id, kind);
CREATE INDEX edges_game ON edges(game_id);

CREATE TABLE cards (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,                      -- card | deck (a hero / villain / environment)
    card_set TEXT,
    number TEXT,
    UNIQUE (game_id, slug)
);

CREATE TABLE rulings (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    slug TEXT NOT NULL,
    former_slug TEXT NOT NULL,               -- the slug of the scheme before 2026-11-27: its URL redirects here
    kind TEXT NOT NULL,                      -- faq | clarification | errata | note
    title TEXT NOT NULL,
    question TEXT,
    answer TEXT,
    text TEXT NOT NULL,
    group_name TEXT,
    group_kind TEXT,
    section TEXT,
    expansion TEXT,
    sources TEXT NOT NULL DEFAULT '[]',
    document_id INTEGER NOT NULL REFERENCES documents(id),
    also TEXT NOT NULL DEFAULT '[]',         -- JSON: later editions printing the same ruling {document, title, line}
    line INTEGER NOT NULL,
    caps INTEGER NOT NULL DEFAULT 0,         -- source is ALL CAPS
    UNIQUE (game_id, slug)
);
CREATE INDEX rulings_former_slug ON rulings(game_id, former_slug);

CREATE TABLE ruling_cards (
    ruling_id INTEGER NOT NULL REFERENCES rulings(id),
    card_id INTEGER NOT NULL REFERENCES cards(id),
    PRIMARY KEY (ruling_id, card_id)
);

CREATE TABLE ruling_terms (
    ruling_id INTEGER NOT NULL REFERENCES rulings(id),
    term_id INTEGER NOT NULL REFERENCES terms(id),
    PRIMARY KEY (ruling_id, term_id)
);
CREATE INDEX ruling_terms_term ON ruling_terms(term_id);

CREATE TABLE diagnostics (
    game TEXT,
    level TEXT NOT NULL,
    path TEXT NOT NULL,
    line INTEGER,
    message TEXT NOT NULL
);

CREATE TABLE furniture (
    document_id INTEGER NOT NULL REFERENCES documents(id),
    line INTEGER NOT NULL,
    reason TEXT NOT NULL
);
CREATE INDEX furniture_document ON furniture(document_id);
