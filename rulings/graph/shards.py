"""A graph written in shards (each a run of whole games, by a process of its own) merged into one, in order.

A shard is a graph file of the same schema whose ids start at 1. Merged after the graph written so
far, its rows keep their order and their ids move up by what that graph already holds: a row id is
the table's largest plus one, so every id, and every reference to one (the schema's ``REFERENCES``),
comes out as one process writing the games one after the other would have made it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


def merge_shard(conn: sqlite3.Connection, shard: Path) -> None:
    """Append every row of the graph file ``shard`` to the graph open in ``conn``, ids moved up."""
    conn.execute("ATTACH DATABASE ? AS shard", (str(shard),))
    try:
        tables = _tables(conn)
        offsets = {  # before any row of the shard is added: what its ids move up by
            table: conn.execute(f"SELECT COALESCE(MAX(id), 0) FROM main.{table}").fetchone()[0]
            for table, (columns, _, _) in tables.items()
            if "id" in columns
        }
        for table, (columns, references, rowid) in tables.items():
            moved = [
                f"{column} + {offsets[references.get(column, table)]}"
                if (column == "id" and table in offsets) or references.get(column) in offsets
                else column
                for column in columns
            ]
            order = " ORDER BY rowid" if rowid else ""  # rows keep their order (``ORDER BY rank, rowid``)
            conn.execute(
                f"INSERT INTO main.{table} ({', '.join(columns)}) SELECT {', '.join(moved)} FROM shard.{table}{order}"
            )
        conn.commit()
    except BaseException:
        conn.rollback()  # else DETACH fails ("database shard is locked") and hides what went wrong
        raise
    finally:
        conn.execute("DETACH DATABASE shard")


def _tables(conn: sqlite3.Connection) -> dict[str, tuple[list[str], dict[str, str], bool]]:
    """Each table of the graph in the order the schema creates them: its columns, the tables its columns
    reference (column -> table), and whether it has row ids."""
    tables = {}
    for name, sql in conn.execute(
        "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    ):
        columns = [row[1] for row in conn.execute(f"PRAGMA main.table_info({name})")]
        references = {}
        for _, _, table, column, target, *_ in conn.execute(f"PRAGMA main.foreign_key_list({name})"):
            if target not in (None, "id"):  # only ids move up; any other key would be shifted as if it were one
                raise ValueError(f"{name}.{column} references {table}.{target}: a shard can only move ids")
            references[column] = table
        tables[name] = (columns, references, "WITHOUT ROWID" not in sql.upper())
    return tables
