"""Full-text search: a Whoosh index written next to the graph, and the ranked search over it."""
