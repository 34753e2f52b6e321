"""The browser interface: a FastAPI app serving the JSON API of ``docs/api.md`` and the page."""
