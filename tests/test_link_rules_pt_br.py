"""Brazilian Portuguese text links a term only where the word is the term.

Portuguese writes words such as atenção, temperatura, época and parâmetro in
other senses too (paying attention, a GPU's temperature, an era, a CLI
parameter); the pt_BR translation file gives the phrases in which the word is
something else, or the only ones in which it is the term. Each sentence is our own.
"""

from __future__ import annotations

import pytest

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.linking.matcher import Matcher

from .test_link_rules import linked

MATCHER = Matcher.build(load_glossary(glossary_files([])), ["pt_BR", "pt", "en"])


@pytest.mark.parametrize(("text", "expected"), [
    # another sense of the word: not the term
    ("Preste atenção à temperatura da GPU e à temperatura ambiente.", [("GPU", "gpu")]),
    ("Naquela época, o tempo era contado desde a época Unix.", []),
    ("Crie um token de acesso e guarde seu token.", []),
    ("A inferência de tipos e a quantização vetorial.", []),
    ("A decodificação de vídeo e o streaming de vídeo.", []),
    ("A verificação de integridade do arquivo falhou.", []),
    ("Faça um ajuste fino das configurações.", []),
    ("A perda de balanceamento de carga dos especialistas.", []),
    ("Um contêiner de blobs e um amostrador distribuído.", []),
    ("O warmup do servidor e o gradiente de política.", []),
    ("A inferência em lote roda à noite.", []),
    # the term itself
    ("A temperatura de amostragem divide os logits; com temperatura 0 a decodificação é gulosa.",
     [("temperatura de amostragem", "temperature"), ("logits", "logits"),
      ("temperatura", "temperature"), ("decodificação", "decode")]),
    ("O ajuste fino do modelo atualiza todos os pesos a cada época.",
     [("ajuste fino", "fine-tuning"), ("época", "epoch")]),
    ("A verificação de integridade do serviço passou; o balanceador de carga voltou a rotear.",
     [("verificação de integridade", "health-check"), ("balanceador de carga", "load-balancer")]),
    ("O warmup da taxa de aprendizado dura 1000 passos.",
     [("warmup da taxa de aprendizado", "warmup")]),
    # words linked only in the phrases the file lists
    ("O parâmetro --port é da CLI; o modelo tem 7 bilhões de parâmetros.",
     [("parâmetros", "parameter")]),
    ("A normalização do texto não é a camada de normalização.", [("normalização", "normalization")]),
    ("Um snapshot do código não é um snapshot de disco; o acesso é instantâneo.",
     [("snapshot de disco", "snapshot")]),
])
def test_a_portuguese_word_links_only_as_the_term(text: str, expected: list[tuple[str, str]]) -> None:
    assert linked(text, MATCHER) == expected
