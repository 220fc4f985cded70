extensions = ["myst_parser", "sphinxcontrib_gpuglossary"]
project = "MyST"
