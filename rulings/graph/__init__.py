"""The versioned glossary graph: assembled from parsed documents, stored in SQLite."""
