"""Sphinx configuration for hand-rummy.

The package is installed (editable) in the build environment, so autodoc
needs no ``sys.path`` entry; the build's own extensions in ``_ext`` do.
"""

import os
import sys

project = "hand-rummy"
author = "the hand-rummy developers"
copyright = "2026, the hand-rummy developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
]
# sphinx.ext.intersphinx is deliberately not enabled: it needs network access
# to fetch inventories, which the build machines do not have.

autodoc_typehints = "description"
autodoc_member_order = "bysource"

nitpicky = False

exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

html_theme = "furo"
html_title = "hand-rummy"

# --- added for the generated rule pages (docs/_ext/rules_pages.py) -------------
sys.path.insert(0, os.path.abspath("_ext"))
extensions.append("rules_pages")

# --- added for the pictures drawn at build time (docs/_ext/pictures.py) --------
extensions.append("pictures")
