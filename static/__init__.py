"""The site's CSS and JavaScript, installed as the package ``rulings.static`` (see pyproject.toml)."""
