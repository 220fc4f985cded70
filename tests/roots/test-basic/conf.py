extensions = ["sphinxcontrib_gpuglossary"]
project = "Basic"
version = "1.0"
copyright = "2026, AnchorGPU"
