"""Reading a document's bytes into numbered lines, whatever encoding it arrived in."""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

from ..errors import CorpusError, Diagnostic
from .manifest import DocumentSpec

MAX_DOCUMENT_BYTES = 16 * 1024 * 1024


@dataclass
class Source:
    """A decoded document: ``lines[i]`` is source line ``i + 1``."""

    spec: DocumentSpec
    lines: list[str]
    sha256: str
    encoding: str
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def warn(self, line: int | None, message: str) -> None:
        self.diagnostics.append(Diagnostic("warning", self.spec.display_path, line, message))


def _looks_binary(data: bytes) -> bool:
    sample = data[:65536]
    if b"\x00" in sample:
        return True
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    return controls > len(sample) * 0.05


def decode(data: bytes, where: str) -> tuple[str, str]:
    """Decode bytes as UTF-8 / UTF-16 (by BOM) or, failing that, Windows-1252."""
    for bom, name in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            try:
                return data.decode(name), name
            except UnicodeDecodeError as exc:  # utf-8-sig counts from after its BOM, utf-16 from the start
                at = exc.start + (len(bom) if name == "utf-8-sig" else 0)
                good = data[:at].decode(name, errors="replace")
                raise CorpusError(
                    where, f"invalid {name} text (byte {at}); the byte-order mark promises {name}", good.count("\n") + 1
                ) from None
    sample = data[:4096]
    if len(sample) >= 4 and sample.count(b"\x00") * 3 > len(sample):  # UTF-16 without a byte-order mark
        zeros_odd = sum(1 for b in sample[1::2] if b == 0)
        name = "utf-16-le" if zeros_odd > len(sample) // 4 else "utf-16-be"
        try:
            return data.decode(name), name
        except UnicodeDecodeError:
            pass
    if _looks_binary(data):
        raise CorpusError(where, "binary data, not text: convert the document to UTF-8 text first")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), "cp1252"


def read_source(spec: DocumentSpec, data: bytes | None = None) -> Source:
    import hashlib

    where = spec.display_path
    if data is None:
        size = spec.path.stat().st_size
        if size > MAX_DOCUMENT_BYTES:
            raise CorpusError(
                where,
                f"document is {size / (1024 * 1024):.0f} MiB; the limit is "
                f"{MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB per document (split it)",
            )
        data = spec.path.read_bytes()
    elif len(data) > MAX_DOCUMENT_BYTES:
        raise CorpusError(where, f"document is larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB")
    text, encoding = decode(data, where)
    source = Source(
        spec, text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), hashlib.sha256(data).hexdigest(), encoding
    )
    if encoding == "cp1252":
        source.warn(None, "not valid UTF-8; read as Windows-1252 (latin-1): check accented characters")
    if not text.strip():
        source.warn(None, "empty document: nothing to parse")
    return source
