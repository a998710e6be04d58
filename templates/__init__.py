"""The site's Jinja templates, installed as the package ``rulings.templates`` (see pyproject.toml)."""
