extensions = ["myst_parser", "sphinxcontrib_gpuglossary"]
project = "Autolink"
gpuglossary_autolink = "first"
show_warning_types = True  # Sphinx 7.4 hides "[type.subtype]" otherwise
