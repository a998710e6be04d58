"""rulings: a versioned rules-reference and rulings service for card games.

The package is laid out in the order data flows through it:

* ``rulings.ingest``  reads ``corpus/<game>/game.toml`` and parses documents;
* ``rulings.graph``   persists the versioned glossary graph in SQLite and
  answers questions about versions, history and diffs;
* ``rulings.index``   builds and queries the Whoosh full-text index;
* ``rulings.web`` and ``rulings.cli`` serve all of it.
"""

__version__ = "0.1.0"
