project = "Example site"
extensions = []
