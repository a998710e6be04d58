"""Ingest: manifests, source decoding, and one parser per document family."""
