# Where terms are used: a toctree order that is not alphabetical, uses inside
# only/ifconfig and substitutions, and a glossary page of the used terms.
extensions = ["sphinxcontrib_gpuglossary", "sphinx.ext.ifconfig"]
project = "Used"
gpuglossary_seeded = False
gpuglossary_files = ["terms.yaml"]
show_warning_types = True  # Sphinx 7.4 hides "[type.subtype]" otherwise


def setup(app):
    app.add_config_value("show_extras", False, "env")
