extensions = ["myst_parser", "sphinxcontrib_gpuglossary"]
project = "Autolink"
gpuglossary_autolink = "first"
