"""Cloud GPU Atlas core: load, validate and render site data without MkDocs.

The modules here import nothing from mkdocs, so tests and scripts can call them directly;
`hooks/atlas_hooks.py` wires them to MkDocs events.
"""
