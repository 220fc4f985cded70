extensions = ["myst_parser", "sphinxcontrib_gpuglossary"]
project = "Scan MyST"
myst_enable_extensions = ["deflist", "substitution", "colon_fence", "dollarmath"]
myst_substitutions = {"kv": "KV cache and VRAM"}
show_warning_types = True  # Sphinx 7.4 hides "[type.subtype]" otherwise
