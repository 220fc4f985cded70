extensions = ["sphinxcontrib_gpuglossary"]
project = "User"
gpuglossary_seeded = False
gpuglossary_files = ["terms.yaml"]
