"""Sphinx configuration of the companion's book, copied verbatim beside the generated pages by
`python -m lib.companion.report`. Everything loads from the built folder: MathJax comes from the
`sphinx-mathjax-offline` wheel (installed by `make setup`), never from a CDN."""
import importlib.metadata

project = "ICML 2026 paper companion"
author = "the companion's contributors"
extensions = ["myst_nb"]

# the executed notebooks are rendered as `dvc repro` left them: the book never runs code
nb_execution_mode = "off"
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3

try:
    MATHJAX = importlib.metadata.distribution("sphinx-mathjax-offline").locate_file(
        "sphinx-mathjax-offline/static")
except importlib.metadata.PackageNotFoundError:
    raise SystemExit("the book needs MathJax's files from the sphinx-mathjax-offline package: "
                     "`make setup` installs it") from None
mathjax_path = "mathjax/tex-svg.js"          # SVG output: no web fonts to load from file://

html_theme = "sphinx_book_theme"
html_title = project
html_static_path = ["_static", str(MATHJAX)]
html_css_files = ["book.css"]
html_js_files = ["claims.js", "selfcheck.js"]
html_show_sourcelink = False
html_copy_source = False
html_theme_options = {"show_toc_level": 2, "use_download_button": False,
                      "use_fullscreen_button": False}
