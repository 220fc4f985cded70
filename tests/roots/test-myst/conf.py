extensions = ["myst_parser", "sphinxcontrib_gpuglossary"]
project = "MyST"
show_warning_types = True  # Sphinx 7.4 hides "[type.subtype]" otherwise
