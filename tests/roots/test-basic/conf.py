extensions = ["sphinxcontrib_gpuglossary"]
project = "Basic"
version = "1.0"
copyright = "2026, AnchorGPU"
show_warning_types = True  # Sphinx 7.4 hides "[type.subtype]" otherwise
