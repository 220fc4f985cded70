extensions = ["sphinxcontrib_gpuglossary", "myst_parser"]
project = "Linking"
gpuglossary_autolink = "all"
exclude_patterns = ["_build"]
show_warning_types = True
