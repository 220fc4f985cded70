"""Write a page's See-also lines both ways: as the HTML visitor writes :class:`gpu_related`
itself, and as the translator writes the nodes :func:`expand_related` stands for."""

from __future__ import annotations

from docutils import nodes

from sphinxcontrib_gpuglossary.nodes import gpu_related
from sphinxcontrib_gpuglossary.tables import expand_related


def written_both_ways(app, docname: str = "glossary") -> tuple[str, str]:
    """``(direct, expanded)``: the HTML body of *docname* with its See-also nodes written
    by the visitor, and with them replaced by the nodes they stand for first."""
    builder, env = app.builder, app.env
    doctree = env.get_doctree(docname)
    env.apply_post_transforms(doctree, docname)
    doctree.settings = builder.docsettings  # as the builder writes it
    expanded = doctree.deepcopy()
    for node in list(expanded.findall(gpu_related)):
        node.replace_self(expand_related(node))

    def written(document: nodes.document) -> str:
        translator = builder.create_translator(document, builder)
        document.walkabout(translator)
        return "".join(translator.body)

    return written(doctree), written(expanded)
