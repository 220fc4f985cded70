extensions = ["sphinxcontrib_gpuglossary"]
project = "Basic"
