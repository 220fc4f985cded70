"""Simplified Chinese text links a term only where the word is the term.

Chinese writes words such as 温度, 卸载 and 参数 in other senses too (a GPU's
temperature, uninstalling a driver, a function's parameters); the zh_CN
translation file gives the phrases in which the word is something else, or the
only ones in which it is the term. Each sentence is our own.
"""

from __future__ import annotations

import pytest

from sphinxcontrib_gpuglossary.core.loader import glossary_files, load_glossary
from sphinxcontrib_gpuglossary.linking.matcher import Matcher

from .test_link_rules import linked

MATCHER = Matcher.build(load_glossary(glossary_files([])), ["zh_CN", "zh", "en"])


@pytest.mark.parametrize(("text", "expected"), [
    # another sense of the word: not the term
    ("请监控 GPU 温度和显存温度。", [("GPU", "gpu"), ("显存", "vram")]),
    ("先卸载旧版驱动程序，再卸载数据盘。", []),
    ("专家负载均衡靠负载均衡损失维持。", []),
    ("中文分词不同于 BPE。", [("BPE", "bpe")]),
    ("上一轮对话轮次的缓存预热完毕。", []),
    ("在嵌入式设备上运行。", []),
    ("向量量化和类型推理。", []),
    # the term itself
    ("采样温度越低，温度为 0 时按贪心解码处理。", [("采样温度", "temperature"), ("温度", "temperature")]),
    ("使用 CPU 卸载把优化器状态卸载到内存。", [("CPU 卸载", "offloading"), ("卸载", "offloading")]),
    ("负载均衡器跳过不健康的副本。", [("负载均衡器", "load-balancer")]),
    ("先对文本分词，再查看学习率预热。", [("分词", "tokenization"), ("学习率预热", "warmup")]),
    # words linked only in the phrases the file lists
    ("模型参数量为 7B 参数，采样参数另设。", [("模型参数", "parameter"), ("参数", "parameter")]),
    ("RMS 归一化不同于批归一化。", [("归一化", "normalization")]),
    ("创建云盘快照，而不是浏览器快照。", [("快照", "snapshot")]),
])
def test_a_chinese_word_links_only_as_the_term(text: str, expected: list[tuple[str, str]]) -> None:
    assert linked(text, MATCHER) == expected
