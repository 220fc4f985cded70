extensions = ["sphinxcontrib_gpuglossary"]
project = "CJK"
gpuglossary_seeded = False
gpuglossary_files = ["terms.yaml"]
show_warning_types = True
