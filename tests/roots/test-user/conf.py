extensions = ["sphinxcontrib_gpuglossary"]
project = "User"
gpuglossary_seeded = False
gpuglossary_files = ["terms.yaml"]
show_warning_types = True  # Sphinx 7.4 hides "[type.subtype]" otherwise
