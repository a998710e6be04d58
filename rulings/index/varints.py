"""Unsigned integers in 7-bit groups, low first (as protocol buffers write them): small numbers, one byte."""

from __future__ import annotations


def write_varint(out: bytearray, number: int) -> None:
    while number >= 0x80:
        out.append((number & 0x7F) | 0x80)
        number >>= 7
    out.append(number)


def read_varint(data: bytes, pos: int) -> tuple[int, int]:
    """The number at ``pos`` and the position after it."""
    number = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        number |= (byte & 0x7F) << shift
        if byte < 0x80:
            return number, pos
        shift += 7
