"""Curated fixes from ``game.toml`` applied to parsed documents (never to the documents)."""

from __future__ import annotations

import re

from ..errors import Diagnostic
from ..text import name_key
from .manifest import Correction, DocumentSpec
from .model import Block, ParsedDocument

STEP = re.compile(r"^\d+\.\s")  # "1. A card is …": a numbered sentence


def apply_corrections(spec: DocumentSpec, doc: ParsedDocument, corrections: list[Correction]) -> None:
    """Rename the record that starts at each corrected line, if it still says what ``was`` says; a heading
    glued to its first line gives the rest of that line back to the record's text."""
    for fix in corrections:
        if fix.file != spec.file:
            continue
        records = [*doc.entries, *(e for v in doc.versions for e in v.entries)]
        record = next((r for r in records if r.line == fix.line), None)
        current = (record.names[0] if hasattr(record, "names") else record.name) if record else None
        if record is None or current is None or name_key(current) != name_key(fix.was):
            doc.diagnostics.append(
                Diagnostic(
                    "warning",
                    spec.display_path,
                    fix.line,
                    f"game.toml correction expects \u201c{fix.was}\u201d here but finds "
                    f"{('“' + current + '”') if current else 'no heading'}; correction not applied",
                )
            )
            continue
        glued = glued_text(current, fix.name)
        if hasattr(record, "names"):
            record.names[0] = fix.name
        else:
            record.name = fix.name
        if glued:  # "Face Down1. A card is …" named "Face Down": the rest of the line is its text's first block
            record.blocks.insert(0, Block(glued, fix.line, "step" if STEP.match(glued) else "para"))


def glued_text(printed: str, name: str) -> str | None:
    """What follows ``name`` in a heading printed glued to its first line (no space between them), if any."""
    if printed.startswith(name) and printed[len(name) :][:1].strip():
        return printed[len(name) :].strip()
    return None
