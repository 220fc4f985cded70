# The browser tests build this site with each theme and language (confoverrides).
extensions = ["sphinxcontrib_gpuglossary"]
project = "Browser"
html_theme = "alabaster"
