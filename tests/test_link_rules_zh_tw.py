"""Traditional Chinese (Taiwan) text links a term only where the word is the term.

Chinese writes words such as 溫度, 卸載, 解碼 and 參數 in other senses too (a GPU's
temperature, uninstalling a driver, an encoder-decoder, a function's parameters);
the zh_TW translation file gives the phrases in which the word is something else,
or the only ones in which it is the term. Each sentence is our own.
"""

from __future__ import annotations

import pytest

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.linking.matcher import Matcher

from .test_link_rules import linked

MATCHER = Matcher.build(load_glossary(glossary_files([])), ["zh_TW", "zh", "en"])


@pytest.mark.parametrize(("text", "expected"), [
    # another sense of the word: not the term
    ("請監控 GPU 溫度與記憶體溫度。", [("GPU", "gpu")]),
    ("先卸載舊版驅動程式，再卸載磁碟區。", []),
    ("編碼器-解碼器架構不負責影像解碼。", []),
    ("在嵌入式裝置上執行。", []),
    ("向量量化與型別推論。", []),
    ("存取權杖要妥善保管，存取 token 也是。", []),
    ("利用 GPU 的平行運算能力。", [("GPU", "gpu")]),
    ("把照片存到 SD 卡。", []),
    ("影片串流與資料串流。", []),
    ("資料取樣器與 Blob 容器。", []),
    ("精度損失很小，延遲載入圖片。", []),
    # the term itself
    ("取樣溫度越低，溫度為 0 時視為貪婪解碼。",
     [("取樣溫度", "temperature"), ("溫度", "temperature")]),
    ("使用 CPU 卸載把最佳化器狀態卸載到記憶體。", [("CPU 卸載", "offloading"), ("卸載", "offloading")]),
    ("LLM 推論的解碼階段受限於記憶體頻寬。",
     [("推論", "inference"), ("解碼階段", "decode"), ("記憶體頻寬", "memory-bandwidth")]),
    ("A100 的運算能力為 8.0。", [("A100", "nvidia-a100"), ("運算能力", "compute-capability")]),
    ("先對文字分詞，再看容器的延遲。",
     [("分詞", "tokenization"), ("容器", "container"), ("延遲", "latency")]),
    # words linked only in the phrases the file lists
    ("模型參數量為 7B 參數，取樣參數另外設定。", [("模型參數", "parameter"), ("參數", "parameter")]),
    ("650 億參數的模型沒有超參數。", [("參數", "parameter")]),
    ("RMS 正規化不同於批次正規化。", [("正規化", "normalization")]),
    ("建立執行個體快照，而不是瀏覽器快照。", [("快照", "snapshot")]),
])
def test_a_chinese_word_links_only_as_the_term(text: str, expected: list[tuple[str, str]]) -> None:
    assert linked(text, MATCHER) == expected
