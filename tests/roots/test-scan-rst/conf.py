extensions = ["sphinxcontrib_gpuglossary"]
project = "Scan reST"
gpuglossary_files = ["terms.yaml"]
exclude_patterns = ["_build", "excluded.rst"]
show_warning_types = True  # Sphinx 7.4 hides "[type.subtype]" otherwise
