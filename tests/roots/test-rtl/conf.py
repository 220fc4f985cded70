# Right-to-left pages in a real browser: seeded terms beside an English-only one.
extensions = ["sphinxcontrib_gpuglossary"]
project = "RTL"
html_theme = "alabaster"
gpuglossary_files = ["terms.yaml"]
