# Every label the extension renders, in a small site without the seeded glossary.
extensions = ["sphinxcontrib_gpuglossary"]
project = "Labels"
gpuglossary_seeded = False
gpuglossary_files = ["terms.yaml"]
show_warning_types = True  # Sphinx 7.4 hides "[type.subtype]" otherwise
