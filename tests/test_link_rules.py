"""Whether a word spelt like a term is the term: the rules of the language and of the data.

Each sentence is our own, written after a pattern that real documentation sites showed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sphinxcontrib_gpuglossary.core.loader import GlossaryFile, glossary_files, load_glossary
from sphinxcontrib_gpuglossary.linking.matcher import Matcher

from .test_loader_errors import only, problems

SEEDED = load_glossary(glossary_files([]))
MATCHER = Matcher.build(SEEDED, ["en"])
JAPANESE = Matcher.build(SEEDED, ["ja", "en"])


def linked(text: str, matcher: Matcher = MATCHER) -> list[tuple[str, str]]:
    return [(text[start:end], term) for start, end, term in matcher.find(text)]


def why(text: str, word: str, matcher: Matcher = MATCHER) -> str | None:
    """The reason the candidate spelt *word* in *text* is not linked."""
    found = [c for c in matcher.candidates(text) if text[c.start:c.end] == word]
    assert len(found) == 1, found
    return found[0].reason


@pytest.mark.parametrize(("text", "expected"), [
    # forms that join words differently
    ("The KVCache grows, the KV-cache too.", [("KVCache", "kv-cache"), ("KV-cache", "kv-cache")]),
    ("It reaches 880 tokens/s on one GPU.", [("tokens/s", "tokens-per-second"), ("GPU", "gpu")]),
    ("Try parameter-efficient finetuning first.",
     [("parameter-efficient finetuning", "peft")]),
    ("Use allreduce between the GPUs.", [("allreduce", "all-reduce"), ("GPUs", "gpu")]),
    # next to CJK characters, and a name joined by a plus sign
    ("使用GPU进行推理", [("GPU", "gpu")]),
    ("KV缓存与CUDA", [("CUDA", "cuda")]),
    ("Pair SGLang+NCCL for this.", [("SGLang", "sglang"), ("NCCL", "nccl")]),
    # a capital mid-sentence inside a longer name is a product's name
    ("Deploy it on Triton Inference Server with two GPUs.", [("GPUs", "gpu")]),
    ("The Transformer Engine speeds up FP8.", [("FP8", "fp8")]),
    ("Inference is cheaper than training.", [("Inference", "inference")]),
    ("Inference Server runs the model.", []),
    ("NVIDIA Container Runtime starts the container.", [("container", "container")]),
    # the term's own word again after "and" names a longer thing beside the term itself,
    # not the head of coordinated words (nunchaku)
    ("Run SDXL and SDXL-Turbo on one GPU.", [("SDXL", "sdxl"), ("GPU", "gpu")]),
    # a model's path on the Hub, as against a local one
    ("It accepts Hugging Face remote paths or local paths.",
     [("Hugging Face", "hugging-face-hub")]),
    ("Load it from either Hugging Face or local file paths.",
     [("Hugging Face", "hugging-face-hub")]),
    # a package named like a concept, idioms, code
    ("Install the transformers library and a tokenizer.", [("tokenizer", "tokenizer")]),
    ("Pay attention to the KV cache size.", [("KV cache", "kv-cache")]),
    ("This flag is serving two purposes.", []),
    ("Serving as a default, it loads one model.", []),
    ("Set --max-batch-size or max_batch_size=8 for the batch size.",
     [("batch size", "batch-size")]),
    ("Call model.parameters() or read cfg/parameters first.", []),
    # a noun after "to", a label's words with text after them on their line
    ("Move it from training to inference each night.", [("inference", "inference")]),
    ("Latest checkpoint detection: the manager reads it.", [("checkpoint", "training-checkpoint")]),
    ("On GPU platforms:\n\n    pip install it", [("GPU", "gpu")]),
    ("Merge LoRA weights:", [("LoRA", "lora")]),
    # a spelling of a term that never links does not hide another term inside it
    ("The tensor shapes are static.", [("tensor", "tensor")]),
    # two terms hyphened are two terms, not one name; plurals of the data's aliases
    ("It uses a Prefill-Decode separation architecture.",
     [("Prefill", "prefill"), ("Decode", "decode")]),
    ("Checkpoints go to object stores.", [("Checkpoints", "training-checkpoint"),
                                          ("object stores", "object-storage")]),
])
def test_sentences(text: str, expected: list[tuple[str, str]]) -> None:
    assert linked(text) == expected


def test_every_turned_down_candidate_says_why() -> None:
    assert why("Deploy it on Triton Inference Server.", "Inference") == \
        "part of the name 'Triton Inference Server'"
    assert why("Install the datasets library.", "datasets") == \
        "the name of a package: 'datasets library'"
    assert why("Load the transformers library.", "transformers") == \
        "part of 'transformers library' (the term's linking.not_in)"
    assert why("Pay attention to it.", "attention") == "the idiom 'pay attention'"
    assert why("Set --max-batch-size now.", "batch-size") == "part of the code '--max-batch-size'"
    assert why("A random seed.", "random seed") == "a common word (autolink: false)"
    assert why("The KV cache.", "KV cache") is None


def test_a_longer_name_turned_down_keeps_its_words() -> None:
    # "Inference" inside the name is turned down, and nothing shorter is linked there
    assert [(c.term, c.reason is None) for c in
            MATCHER.candidates("Run it on Triton Inference Server.")] == [("inference", False)]


def test_the_site_switches_terms_off_and_on() -> None:
    matcher = Matcher.build(SEEDED, ["en"], include=["seed"], exclude=["gpu"])
    assert linked("A random seed on one GPU.", matcher) == [("random seed", "seed")]
    assert why("On one GPU.", "GPU", matcher) == "switched off by the site"


def test_only_part_of_a_text_is_searched_but_all_of_it_is_read() -> None:
    text = "Run it on Triton Inference Server."
    # the context says "Inference" is part of a name, though only it is searched
    assert MATCHER.find(text, start=17, end=26) == []
    assert MATCHER.find("Inference is cheap", start=0, end=9) == [(0, 9, "inference")]


TERMS = """\
terms:
  - id: widget
    category: hardware
    names: {en: Widget}
    aliases: {en: [wdg]}
    forms: {en: [widgets]}
    definitions: {en: "A small part that fits a GPU rack."}
    linking:
      not_in: [widget factory, "# widgets per rack"]
      only_in: [rack widget, widget *, "# widgets"]
  - id: gizmo-hub
    category: infrastructure
    names: {en: Gizmo Hub}
    aliases: {en: [Gizmo]}
    definitions: {en: "A hub."}
    neutral: true
    linking: {only_in: [Gizmo Hub, the Gizmo model hub]}
  - id: zap
    category: hardware
    names: {en: ZAPlib}
    definitions: {en: "A library."}
    linking: {any_case: true}
"""


def user_matcher(tmp_path: Path, text: str = TERMS) -> Matcher:
    path = tmp_path / "terms.yaml"
    path.write_text(text)
    return Matcher.build(load_glossary([GlossaryFile(path, "terms.yaml")]), ["en"])


def test_a_terms_own_phrases_say_where_it_links(tmp_path: Path) -> None:
    matcher = user_matcher(tmp_path)
    assert linked("A rack widget here.", matcher) == [("widget", "widget")]
    assert linked("Any widget spins.", matcher) == [("widget", "widget")]  # "widget *"
    assert linked("The last widget.", matcher) == []  # bare: in none of only_in
    assert linked("Ship 12 widgets.", matcher) == [("widgets", "widget")]  # "#" is a number
    assert linked("The widget factory.", matcher) == []
    assert why("Fit 4 widgets per rack.", "widgets", matcher) == \
        "part of '# widgets per rack' (the term's linking.not_in)"
    assert why("The last widget.", "widget", matcher) == \
        "not in one of the phrases of the term's linking.only_in"


def test_only_in_restricts_the_spellings_its_phrases_hold(tmp_path: Path) -> None:
    """A name of the term that no phrase holds needs no phrase (``learning rate warmup``
    beside ``warmup steps``; another language's name beside English phrases)."""
    matcher = user_matcher(tmp_path, TERMS.replace("aliases: {en: [wdg]}",
                                                   "aliases: {en: [wdg, spinning widget]}"))
    assert linked("A spinning widget. The last widget.", matcher) == [
        ("spinning widget", "widget")]
    assert linked("The wdg spins.", matcher) == [("wdg", "widget")]


def test_a_phrase_holding_a_longer_spelling_still_rules_a_shorter_one(tmp_path: Path) -> None:
    matcher = user_matcher(tmp_path)
    assert linked("Gizmo Hub, the Gizmo company, and the Gizmo model hub.", matcher) == [
        ("Gizmo Hub", "gizmo-hub"), ("Gizmo", "gizmo-hub")]


def test_any_case_matches_a_product_name_in_any_case(tmp_path: Path) -> None:
    matcher = user_matcher(tmp_path)
    assert linked("Load zaplib, ZAPLIB or ZAPlib.", matcher) == [
        ("zaplib", "zap"), ("ZAPLIB", "zap"), ("ZAPlib", "zap")]
    assert linked("Load zaplib.", MATCHER) == []


def test_a_phrase_without_the_terms_words_is_reported(tmp_path: Path) -> None:
    p = only(problems(tmp_path, TERMS.replace("not_in: [widget factory,",
                                              "not_in: [gadget factory,")))
    assert (p.line, p.column) == (9, 16)
    assert "linking phrase 'gadget factory' of term 'widget' holds none of its names" in p.message


def test_an_only_in_phrase_that_is_only_the_terms_words_is_reported(tmp_path: Path) -> None:
    """Such a phrase would let the bare word link; a longer spelling holding a shorter one
    (``rack widget``) and a not_in phrase that is a spelling (``transformers``) load."""
    p = only(problems(tmp_path, TERMS.replace("only_in: [rack widget,", "only_in: [widgets,")))
    assert (p.line, p.column) == (10, 17)
    assert "linking phrase 'widgets' of term 'widget' is only the term's own words" in p.message
    user_matcher(tmp_path, TERMS.replace("not_in: [widget factory,", "not_in: [widgets,"))


def test_a_misspelt_linking_field_is_reported(tmp_path: Path) -> None:
    p = only(problems(tmp_path, TERMS.replace("only_in: [rack", "onlyin: [rack")))
    assert p.line == 10 and "unknown field 'onlyin'" in p.message and "only_in" in p.message


def test_a_japanese_phrase_is_read_as_the_matcher_reads_it(tmp_path: Path) -> None:
    """Japanese writes no spaces: the phrase アクセストークン holds the word トークン, for
    the loader's check as for the matcher."""
    path = tmp_path / "terms.yaml"
    path.write_text("terms:\n  - id: tok\n    category: ml-fundamentals\n"
                    "    names: {en: Tok, ja: トークン}\n    definitions: {en: A unit.}\n"
                    "    linking: {not_in: [アクセストークン]}\n", encoding="utf-8")
    matcher = Matcher.build(load_glossary([GlossaryFile(path, "terms.yaml")]), ["ja"])
    assert linked("アクセストークンを設定し、トークン数を数えます。", matcher) == [("トークン", "tok")]
    p = only(problems(tmp_path, path.read_text(encoding="utf-8").replace(
        "アクセストークン", "アクセスキー")))
    assert "linking phrase 'アクセスキー' of term 'tok' holds none of its names" in p.message


@pytest.mark.parametrize(("text", "expected"), [
    ("アクセストークンと API トークンを設定し、トークン数を確認します。", [("トークン", "token")]),
    ("GPU 温度と動作温度を監視し、温度を 0.7 にします。", [("GPU", "gpu"), ("温度", "temperature")]),
    ("動画デコードの後、LLM 推論のデコードはメモリ帯域幅に律速されます。",
     [("推論", "inference"), ("デコード", "decode"), ("メモリ帯域幅", "memory-bandwidth")]),
    ("型推論ではなく推論を高速化します。", [("推論", "inference")]),
    ("モデルのパラメーター数と、関数のパラメーター。", [("パラメーター", "parameter")]),
])
def test_the_japanese_rules_keep_other_senses_unlinked(
        text: str, expected: list[tuple[str, str]]) -> None:
    """The curated Japanese phrases mirror the English ones (access token, GPU temperature,
    video decode, type inference); a term's only_in phrases link パラメーター in its sense."""
    assert linked(text, JAPANESE) == expected


def test_phrases_from_a_later_file_add_up(tmp_path: Path) -> None:
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text(TERMS)
    second.write_text("terms:\n  - id: widget\n    linking: {not_in: [widget mill]}\n")
    glossary = load_glossary([GlossaryFile(first, "a.yaml"), GlossaryFile(second, "b.yaml")])
    assert glossary.terms["widget"].linking.not_in == (
        "widget factory", "# widgets per rack", "widget mill")


@pytest.mark.parametrize(("text", "word", "reason"), [
    ("DeepSeek-MoE is a model.", "MoE", "part of the name 'DeepSeek-MoE'"),
    # a classical ML library's names and words (development site: XGBoost)
    ("It uses gradient-based sampling.", "gradient",
     "part of 'gradient-based sampling' (the term's linking.not_in)"),
    ("Grace links the CPU and GPU with NVLink-C2C.", "NVLink",
     "part of 'NVLink-C2C' (the term's linking.not_in)"),
    ("The logit link maps the scores.", "logit", "part of 'logit link' (the term's linking.not_in)"),
    ("This brings it to the attention of users.", "attention", "the idiom 'the attention of'"),
    ("Use Spark's feature transformer first.", "transformer",
     "part of 'feature transformer' (the term's linking.other_senses)"),
    # "loss of" anything is a loss, not the loss function
    ("Confirm that loss of the old metadata is acceptable.", "loss",
     "part of 'loss of *' (the term's linking.not_in)"),
    # loss scaling scales the loss value against FP16 underflow: a mixed-precision
    # technique of its own (held-out sites TransformerEngine, PyTorch/XLA; HugeCTR)
    ("FP16 training typically needs dynamic loss scaling.", "loss",
     "part of 'loss scaling' (the term's linking.not_in)"),
    ("We are fine-tuning the model.", "fine-tuning", "a verb: 'are fine-tuning the'"),
    ("It involves fine-tuning a base model.", "fine-tuning", "a verb: 'involves fine-tuning a'"),
    ("The job will checkpoint often.", "checkpoint", "a verb: 'will checkpoint'"),
    ("Set the backend to megatron.", "megatron",
     "a name written in lower case, as code writes it: 'megatron'"),
    ("Load it with the huggingfacehub class.", "huggingfacehub",
     "a name written in lower case, as code writes it: 'huggingfacehub'"),
    ("Pass the token with the authorization header.", "token",
     "'authorization' in the same sentence (the term's linking.not_near)"),
    ("Normalization of rewards keeps it stable.", "Normalization",
     "not in one of the phrases of the term's linking.only_in"),
    ("Compile it with Torch-TensorRT.", "Torch",
     "part of 'Torch-TensorRT' (the term's linking.not_in)"),
    ("Export TP=$SIZE first.", "TP", "part of the code 'TP=$SIZE'"),
    # an SM's number or version is the compute capability, not the multiprocessor
    ("Kernels need SM 8.0 or newer.", "SM", "part of 'SM #' (the term's linking.not_in)"),
    ("Check the SM version first.", "SM", "part of 'SM version' (the term's linking.not_in)"),
    # NVIDIA's catalog and a warping network are names, whatever their case
    ("MMARs are released on Nvidia GPU cloud.", "GPU",
     "part of 'NVIDIA GPU Cloud' (the term's linking.not_in)"),
    ("A spatial transformer warps the image.", "transformer",
     "part of 'spatial transformer' (the term's linking.not_in)"),
    ("We draw inferences from the results.", "inferences",
     "part of 'draw inferences' (the term's linking.not_in)"),
    # a model's parameters in a sentence about a command or its flags are settings
    ("Query the parameters of the model with the launch command.", "parameters",
     "'launch' in the same sentence (the term's linking.not_near)"),
    ("SDXL Turbo needs one step.", "SDXL", "part of 'SDXL Turbo' (the term's linking.not_in)"),
    # an access token beside API keys or in headers; the transformers library, singular
    ("Keep tokens and API keys out of the logs.", "tokens",
     "part of 'tokens and API keys' (the term's linking.not_in)"),
    ("Headers may carry a token for the proxy.", "token",
     "'headers' in the same sentence (the term's linking.not_near)"),
    ("Fine-tune it with Hugging Face PEFT.", "Hugging Face",
     "part of 'Hugging Face PEFT' (the term's linking.not_in)"),
    ("Load the Hugging Face checkpoint into Megatron.", "Hugging Face",
     "part of 'Hugging Face checkpoint' (the term's linking.not_in)"),
    ("Serve HuggingFace Transformer models.", "HuggingFace",
     "part of 'Hugging Face Transformer' (the term's linking.not_in)"),
    ("It works with huggingface transformer classes.", "transformer",
     "part of 'HuggingFace transformer' (the term's linking.not_in)"),
    # words run together with a capital in between: a name as code writes it
    ("Set batchSize to one.", "batchSize", "a name in camel case, as code writes it: 'batchSize'"),
    ("Use TensorParallel here.", "TensorParallel",
     "a name in camel case, as code writes it: 'TensorParallel'"),
    # a value in quotes, a device or port glued on by a colon, a channel name
    ('The device, such as "cuda" or "cpu", is detected.', "cuda", 'a value in quotes: "cuda"'),
    ('One column called "tokens" holds the bytes.', "tokens", 'a value in quotes: "tokens"'),
    ('It returns a dict with the key "loss".', "loss", 'a value in quotes: "loss"'),
    ("Pass cuda:0 for the first device.", "cuda", "part of the code 'cuda:0'"),
    ("Ask in #megatron-core-alerts first.", "megatron-core", "part of the code '#megatron-core-alerts'"),
    # a label opening a paragraph or list item
    ("Dataset: GSM8K, 7,473 problems.", "Dataset", "a label that opens the paragraph: 'Dataset:'"),
    ("GPU memory: 80 GB per card.", "GPU memory", "a label that opens the paragraph: 'GPU memory:'"),
    # a name in capitals that opens the text, a model's id, an infinitive after "how to"
    ("Qwen Gated Attention (QGA) layer", "Attention", "part of the name 'Qwen Gated Attention'"),
    ("Xorbits Inference is a serving platform.", "Inference", "part of the name 'Xorbits Inference'"),
    ("We use the Token-Level Policy Gradient Loss here.", "Token",
     "part of the name 'Token-Level Policy Gradient Loss'"),
    ("Pick stable-diffusion-v1.5 for speed.", "stable-diffusion",
     "part of the name 'stable-diffusion-v1.5'"),
    ("Learn how to inference models here.", "inference", "a verb: 'how to inference'"),
    ("If it doesn't checkpoint, there is a bug.", "checkpoint", 'a verb: "doesn\'t checkpoint"'),
    # a cited work's title in quotes, with its venue after it or its authors before it
    ('[1] P. Mermelstein (1976), "Distance measures for speech recognition, psychological '
     'and instrumental," in Pattern Recognition.', "speech recognition",
     'in the title of a cited work: "Distance measures for speech recognition, psychological '
     'and instrumental,"'),
    ('Ashkboos et al. \u201cQuaRot: Outlier-free 4-bit inference in rotated LLMs.\u201d '
     'Advances in NeurIPS 37.', "inference",
     "in the title of a cited work: \u201cQuaRot: Outlier-free 4-bit inference in rotated "
     "LLMs.\u201d"),
    # a journal's name then the year after it; an author's initial and surname before it
    ('[4] M. Ravanelli, "Automatic context window composition for distant speech '
     'recognition", Speech Communication, 2018.', "speech recognition",
     'in the title of a cited work: "Automatic context window composition for distant '
     'speech recognition"'),
    # a title wrapped over lines of its reference, "The" before the journal's name; a
    # work under review
    ('Srivastava, and Ruslan Salakhutdinov. "Dropout: a simple way to prevent neural\n'
     'networks from overfitting." The Journal of Machine Learning Research\n15 (2014).',
     "overfitting", 'in the title of a cited work: "Dropout: a simple way to prevent neural '
     'networks from overfitting."'),
    ('Brian Van\n  Essen. "The Case for Strong Scaling in Deep Learning: Training Large\n'
     '  3D CNNs with Hybrid Parallelism", under review for Special Session', "Hybrid Parallelism",
     'in the title of a cited work: "The Case for Strong Scaling in Deep Learning: Training '
     'Large 3D CNNs with Hybrid Parallelism"'),
    ('[4] A. Sosi, M.Omologo, "Impulse response estimation for robust speech recognition", '
     'a preprint.', "speech recognition",
     'in the title of a cited work: "Impulse response estimation for robust speech '
     'recognition"'),
    # round 27's product name, licence text and the HPC sense of offloading (a kernel's
    # work moved onto the GPU, not memory moved off it)
    ("See the TensorFlow\n   serving documentation on how to use it.", "serving",
     "part of 'TensorFlow Serving' (the term's linking.not_in)"),
    ("Any and all other commercial damages or losses, even if advised.", "losses",
     "part of 'damages or losses' (the term's linking.not_in)"),
    ("We explore GPU offloading for a Fortran program.", "offloading",
     "part of 'GPU offloading' (the term's linking.not_in)"),
    # round 28's development sites: operators offloaded to an NPU, a token for
    # authenticating, backpropagation through time (an algorithm of its own)
    ("Enable NPU offloading logs first.", "offloading",
     "part of 'NPU offloading' (the term's linking.not_in)"),
    ("Token used for authenticating first-time connections.", "Token",
     "'authenticating' in the same sentence (the term's linking.not_near)"),
    ("Train recurrent networks via back propagation through time (BPTT).", "back propagation",
     "part of 'backpropagation through time' (the term's linking.not_in)"),
    # a word after a command-line option is its value or names it
    ("Run validate --run latency on the card.", "latency",
     "after the command-line option '--run': its value, or its name"),
    ("Pass --dtype bf16 to the script.", "bf16",
     "after the command-line option '--dtype': its value, or its name"),
    ("Start it with (-d GPU) on the node.", "GPU",
     "after the command-line option '-d': its value, or its name"),
    ("If it does not prefill, there is a bug.", "prefill", "a verb: 'does not prefill'"),
    ("The run won\u2019t checkpoint here.", "checkpoint", "a verb: 'won\u2019t checkpoint'"),
    ("Run this code to inference the model.", "inference", "a verb: 'to inference the'"),
    ("Latest checkpoint detection:\nThe manager finds the newest one.", "checkpoint",
     "a label that opens the paragraph: 'Latest checkpoint detection:'"),
    ("Docker - build the archive in a container.", "Docker",
     "a label that opens the paragraph: 'Docker -'"),
    ("Run FLUX.1-schnell in four steps.", "FLUX.1", "part of the name 'FLUX.1-schnell'"),
    # a phrase of the data holds the words run together too
    ("It ships in HuggingFace Transformers.", "HuggingFace",
     "part of 'Hugging Face Transformer' (the term's linking.not_in)"),
    # the data's rules for words the sites use in longer names or other senses
    ("Try quantization-aware training next.", "quantization",
     "part of 'quantization-aware training' (the term's linking.not_in)"),
    ("Megatron-FSDP shards the model.", "FSDP", "part of 'Megatron-FSDP' (the term's linking.not_in)"),
    ("The CUDA graph warmup runs twice.", "warmup",
     "'graph' in the same sentence (the term's linking.not_near)"),
    ("After warmup, the callback runs.", "warmup",
     "not in one of the phrases of the term's linking.only_in"),
    ("Both the PyTorch and TurboMind backends stream.", "PyTorch",
     "part of 'PyTorch backend' (the term's linking.not_in)"),
    ("Export a token as an environment variable.", "token",
     "'environment' in the same sentence (the term's linking.not_near)"),
    ("The runtime will decode the payload.", "decode",
     "not in one of the phrases of the term's linking.only_in"),
    # Hugging Face linked only in phrases of the Hub; other senses and longer names the
    # sites showed (aibrix, NeMo RL), and senses the terms' definitions rule out
    ('Hugging Face, the company, hosts a blog.', 'Hugging Face',
     "not in one of the phrases of the term's linking.only_in"),
    ('Install Docker Desktop on the laptop.', 'Docker',
     "part of 'Docker Desktop' (the term's linking.not_in)"),
    ('A stop-gradient keeps the target fixed.', 'gradient',
     "part of 'stop-gradient' (the term's linking.not_in)"),
    # Optax's name for an update step, and a library (Flax)
    ('Chain two gradient transformations with Optax.', 'gradient',
     "part of 'gradient transformation' (the term's linking.not_in)"),
    ('It reads TensorFlow\nDatasets for its input pipeline.', 'Datasets',
     "part of 'TensorFlow Datasets' (the term's linking.not_in)"),
    # protocols and products named after a term (Mooncake's transfer engine)
    ("Remote disks are reached over NVMe-oF.", "NVMe",
     "part of 'NVMe-oF' (the term's linking.not_in)"),
    ("Enable GPU Direct RDMA on each node.", "GPU",
     "part of 'GPU Direct' (the term's linking.not_in)"),
    ("DRAM gives non-persistent storage.", "persistent storage",
     "part of 'non-persistent storage' (the term's linking.not_in)"),
    ("It is a container-toolkit setting.", "container",
     "part of 'container toolkit' (the term's linking.not_in)"),
    ('Set the attention temperature for YaRN.', 'temperature',
     "part of 'attention temperature' (the term's linking.not_in)"),
    # reinforcement learning's entropy temperature (SAC's alpha), Stable-Baselines3, RLinf
    ("When adjusting the temperature (the entropy coefficient), we optimize it.",
     "temperature", "'entropy' in the same sentence (the term's linking.not_near)"),
    ("train/sac/alpha_loss: Loss of the temperature parameter.", "temperature",
     "'alpha' in the same sentence (the term's linking.not_near)"),
    # a tool's own component named after PyTorch (coremltools, hls4ml)
    ("The PyTorch converters ship with the package.", "PyTorch",
     "part of 'PyTorch converter' (the term's linking.not_in)"),
    ("When using the default PyTorch parser, wrap the module.", "PyTorch",
     "part of 'PyTorch parser' (the term's linking.not_in)"),
    ("It trains without any significant loss in model accuracy.", "loss",
     "part of 'loss in model accuracy' (the term's linking.not_in)"),
    # the gerund with its object, as the verb rule reads "fine-tuning a model" (the corpus:
    # seven such mentions null, one linked)
    ("The microservice supports fine-tuning models on your data.", "fine-tuning",
     "part of 'fine-tuning models' (the term's linking.not_in)"),
    ("We also support finetuning LLMs using QLoRA.", "finetuning",
     "part of 'fine-tuning LLMs' (the term's linking.not_in)"),
    # the opposite mode (sherpa's offline recognizers)
    ("The executable expects a non-streaming speech recognition model.", "streaming",
     "part of 'non-streaming' (the term's linking.not_in)"),
    # a video protocol's streaming (Savant, video analytics), as video streaming
    ("Send the results to a sink for RTSP streaming.", "streaming",
     "part of 'RTSP streaming' (the term's linking.not_in)"),
    # newline-delimited JSON records one after another: a data format (Savant)
    ("The sink writes newline-delimited JSON streaming files.", "streaming",
     "part of 'JSON streaming' (the term's linking.not_in)"),
    # frames dropped from a video stream, as packet loss
    ("Configure a frame loss ratio to test an unstable network.", "loss",
     "part of 'frame loss' (the term's linking.not_in)"),
    # OpenCV's CUDA module, a component named after CUDA (Savant)
    ("Draw the boxes with OpenCV CUDA functions on the frames.", "CUDA",
     "part of 'OpenCV CUDA' (the term's linking.not_in)"),
    # the idioms with a word between their verb and the noun
    ("Graph generation has been attracting growing attention.", "attention",
     "the idiom 'attracting * attention'"),
    ("Pay careful attention to the logs.", "attention", "the idiom 'pay * attention'"),
    ("LLMs have gained widespread attention.", "attention", "the idiom 'gained * attention'"),
    # the term hyphened onto a name that is no term's: a library's, model's or method's
    ("Clusters of MIG instances are supported via Dask-CUDA here.", "CUDA",
     "part of the name 'Dask-CUDA'"),
    ("MTL-LoRA enhances low-rank adapters for multi-task learning.", "LoRA",
     "part of the name 'MTL-LoRA'"),
    ("Models such as Mixer-TTS-X add phoneme inputs.", "TTS", "part of the name 'Mixer-TTS-X'"),
    ('This step requires operator attention.', 'attention',
     "part of 'requires * attention' (the term's linking.not_in)"),
    ('Run it on the CUDA EP of ONNX Runtime.', 'EP',
     "part of 'CUDA EP' (the term's linking.not_in)"),
    ('Run it on the CUDA EP of ONNX Runtime.', 'CUDA',
     "part of 'CUDA EP' (the term's linking.not_in)"),
    # a framework's component named after CUDA (ExecuTorch's backend and delegate;
    # dev labels: 4 null, none right), as ONNX Runtime's CUDA EP
    ("This needs ExecuTorch's CUDA backend and a CUDA toolkit.", "CUDA",
     "part of 'CUDA backend' (the term's linking.not_in)"),
    ("The CUDA delegate runs it on Linux.", "CUDA",
     "part of 'CUDA delegate' (the term's linking.not_in)"),
    # the NLP task of entailment, not running a model
    ("It scores natural language inference benchmarks.", "inference",
     "part of 'natural language inference' (the term's linking.not_in)"),
    ('Convert the weights with Megatron-Bridge.', 'Megatron',
     "part of 'Megatron-Bridge' (the term's linking.not_in)"),
    ('The sampler shuffles the indices every epoch.', 'sampler',
     "'indices' in the same sentence (the term's linking.not_near)"),
    ('Lists, tuples and other containers hold them.', 'containers',
     "'tuples' in the same sentence (the term's linking.not_near)"),
    # a holder of something (MLRun's project, XGBoost's DMatrix, a class of attributes)
    ('A project is a container for all your work.', 'container',
     "part of 'container for' (the term's linking.not_in)"),
    ('Flex attention compiles block masks.', 'attention',
     "part of 'flex attention' (the term's linking.not_in)"),
    ('Tips for fine tuning performance of the server.', 'fine tuning',
     "part of 'fine-tuning performance' (the term's linking.not_in)"),
    ('The load balancing keeps MoE experts busy.', 'load balancing',
     "'moe' in the same sentence (the term's linking.not_near)"),
    ('It supports offloading to the GPU for speed.', 'offloading',
     "part of 'offloading to the GPU' (the term's linking.not_in)"),
    ('Jobs keep running by offloading work to the background.', 'offloading',
     "part of 'offloading * to the background' (the term's linking.not_in)"),
    ('Only users with a valid token reach a protected endpoint.', 'token',
     "'protected' in the same sentence (the term's linking.not_near)"),
    ('Replace it with your huggingface hub token.', 'token',
     "part of 'hub token' (the term's linking.other_senses)"),
    ('The router is serving inference requests now.', 'serving',
     "part of 'serving * requests' (the term's linking.not_in)"),
    ('Sign it with the token signing algorithm.', 'token',
     "part of 'token signing' (the term's linking.not_in)"),
    # senses a new development site showed (XTuner)
    ("These two options are worth attention.", "attention",
     "part of 'worth attention' (the term's linking.not_in)"),
    ("Load balancing with an auxiliary loss evens out the work.", "Load balancing",
     "'loss' in the same sentence (the term's linking.not_near)"),
    ("The sampler hands each rollout its prompts.", "sampler",
     "'rollout' in the same sentence (the term's linking.not_near)"),
    ("Enable chunk loss to save memory.", "loss",
     "part of 'chunk loss' (the term's linking.not_in)"),
    # senses the development sites of the seventh round showed (NeMo, Torch-TensorRT)
    ("A single DGX H100 node with eight GPUs runs it.", "H100",
     "part of 'DGX H100' (the term's linking.not_in)"),
    ("Configure the PyTorch Lightning trainer.", "PyTorch",
     "part of 'PyTorch Lightning' (the term's linking.not_in)"),
    ("NeMo Megatron trains large models.", "Megatron",
     "part of 'NeMo Megatron' (the term's linking.not_in)"),
    ("The codec applies vector quantization to the encoder output.", "quantization",
     "part of 'vector quantization' (the term's linking.other_senses)"),
    ("Enable weight streaming for large engines.", "streaming",
     "part of 'weight streaming' (the term's linking.not_in)"),
    ("Rotary and positional embeddings encode order.", "embeddings",
     "part of 'positional embedding' (the term's linking.not_in)"),
    # the eighth round's development sites (Megatron-Bridge): a phrase's word after the
    # term holds its plural; a proper name in lower case with a hyphen is a package
    ("It derives settings from Hugging Face configs.", "Hugging Face",
     "part of 'Hugging Face config' (the term's linking.not_in)"),
    ("Failed to build megatron-core from source.", "megatron-core",
     "a name written in lower case, as code writes it: 'megatron-core'"),
    ("It handles per-parameter streaming.", "streaming",
     "part of 'parameter streaming' (the term's linking.not_in)"),
    ("Map it to the transformer config fields.", "transformer",
     "part of 'transformer config' (the term's linking.not_in)"),
    ("List the functions and their parameters.", "parameters",
     "not in one of the phrases of the term's linking.only_in"),
    # a sampler is a diffusion sampler only where its phrases say so: on GPU and ML sites
    # the word names data samplers and token samplers
    ("The distributed sampler hands each rank its batches.", "sampler",
     "part of 'distributed sampler' (the term's linking.not_in)"),
    ("The sampler picks the next item.", "sampler",
     "not in one of the phrases of the term's linking.only_in"),
    # the ninth round's development sites (DeepSpeed)
    ("It uses auxiliary-loss-free load balancing.", "loss",
     "part of 'loss-free' (the term's linking.not_in)"),
    ("Enable activation checkpoint offload to save memory.", "checkpoint",
     "part of 'activation checkpoint' (the term's linking.not_in)"),
    ("Each rank joins the secondary tensor groups.", "tensor",
     "part of 'tensor group' (the term's linking.not_in)"),
    # a term's not_near word inside a name in snake case in the same sentence
    ("Set moe_router_load_balancing_type to pick the load balancing method.", "load balancing",
     "'moe' in the same sentence (the term's linking.not_near)"),
    ("It adds multi-token prediction heads.", "token",
     "part of 'multi-token prediction' (the term's linking.not_in)"),
    ("Results sit in the in-memory object store.", "object store",
     "part of 'in-memory object store' (the term's linking.not_in)"),
    ("Python containers such as lists hold the tensors.", "containers",
     "part of 'Python container' (the term's linking.other_senses)"),
    # a word before the term is read as written: "models parameter" is no "model parameter"
    ("Models passed in the models parameter are ignored.", "parameter",
     "not in one of the phrases of the term's linking.only_in"),
    # a package's name is in the plural (transformers, datasets); a word in the singular
    # there says what the package is for
    ("Install the datasets library.", "datasets", "the name of a package: 'datasets library'"),
    # one sense per paragraph: the same word read in another sense (its not_near words)
    # elsewhere in it
    ("API tokens authorize requests. You may use tokens to deploy.", "tokens", None),
])
def test_more_language_and_data_rules(text: str, word: str, reason: str | None) -> None:
    if reason is None:  # the paragraph case: every mention of the word is turned down
        reasons = [c.reason for c in MATCHER.candidates(text) if text[c.start:c.end] == word]
        assert reasons == ["part of 'API token' (the term's linking.other_senses)",
                           "'tokens' means something else elsewhere in this paragraph"]
        return
    assert why(text, word) == reason


def test_a_hyphen_inside_a_word_is_no_option_wherever_the_search_starts() -> None:
    """The option before a word is looked for in the sixty characters before it; a hyphen
    inside a long word there, where the search starts, opens no option."""
    from sphinxcontrib_gpuglossary.linking import rules

    text = "word-" + "y" * 58 + " latency"
    start = text.index("latency")
    assert text.index("-") == start - 60
    assert rules.after_option(text, start) is None
    assert rules.after_option("run --run latency", 10) == "--run"


def test_one_sense_per_paragraph_holds_across_the_terms_spellings() -> None:
    text = ("TorchServe enforces token authorization by default. It writes a key file with "
            "the tokens for API calls.")
    assert why(text, "tokens") == "'token' means something else elsewhere in this paragraph"


def test_a_terms_rules_are_compiled_when_it_is_first_found() -> None:
    matcher = Matcher.build(SEEDED, ["en"])
    assert matcher.rules == {}
    assert linked("Download the model from Hugging Face.", matcher) == [
        ("Hugging Face", "hugging-face-hub")]
    assert set(matcher.rules) == {"hugging-face-hub"}  # no other term was found
    own = matcher.rules["hugging-face-hub"]
    assert own is not None and own.only_in


@pytest.mark.parametrize(("text", "expected"), [
    # run together as the glossary spells it, or with no small letter before a capital
    ("PagedAttention pages the KVCache.",
     [("PagedAttention", "paged-attention"), ("KVCache", "kv-cache")]),
    ("Multi-GPU training on NVIDIA GPUs and an NVIDIA L4 GPU.",
     [("GPU", "gpu"), ("GPUs", "gpu"), ("GPU", "gpu")]),
    ("Use DP/TP/EP, or AWQ/GPTQ INT4 weights.",
     [("TP", "tensor-parallelism"), ("EP", "expert-parallelism"), ("AWQ", "awq"),
      ("GPTQ", "gptq")]),
    ("Supports 8-bit floating point(FP8) and fp16 with pytorch and vllm.",
     [("8-bit floating point", "fp8"), ("FP8", "fp8"), ("fp16", "fp16"), ("pytorch", "pytorch"),
      ("vllm", "vllm")]),
    ("Streaming responses reach the client; the serving layer batches them.",
     [("Streaming", "streaming"), ("serving", "serving")]),
    # scare quotes around the first word of the term's longer spelling (Spinning Up)
    ('In this block, we build a "loss" function for the algorithm.',
     [("loss", "loss-function")]),
    # a network's or a policy's learned parameters, synced across processes
    ("The two main ingredients are syncing parameters and averaging gradients.",
     [("parameters", "parameter"), ("gradients", "gradient")]),
    # scheduling the learning rate is the scheduler's concept
    ("Learning rate scheduling and LR scheduling help.",
     [("Learning rate scheduling", "lr-scheduler"), ("LR scheduling", "lr-scheduler")]),
    # the weights of a family of policies (the phrase's first word in the plural)
    ("Let the parametrized policies with parameters θ be given.", [("parameters", "parameter")]),
    # a language model's tokens in a sentence, and a normalisation layer
    ("Tags are added to the tokens in the sentence; add a normalisation layer.",
     [("tokens", "token"), ("normalisation", "normalization")]),
    # Docker's build files, in two words as often as in one (Coach)
    ("Edit the docker files; the Dockerfile copies the code.",
     [("docker files", "dockerfile"), ("Dockerfile", "dockerfile")]),

    ("GPU Memory Bandwidth Usage", [("GPU Memory Bandwidth", "memory-bandwidth")]),
    ("Cloud Autoscaling API", []),  # a cell in title case naming a product
    ("The Inference Server runs it, and Inference runs on a GPU.", [("Inference", "inference"),
                                                                     ("GPU", "gpu")]),
    ("Let me log it here.", []),
    # a capitalised word hyphened on before the term says what kind: still the term
    ("Multi-Model Serving runs many models.", [("Model Serving", "serving")]),
    # a proper name's words run together: linked as a name, not as a lower-case package
    ("Download it from HuggingFace or the huggingface hub.",
     [("HuggingFace", "hugging-face-hub"), ("huggingface hub", "hugging-face-hub")]),
    ("Outputs decode into JSON; this needs your attention.", []),
    ("Pipelines use micro-batching in the decode phase.",
     [("micro-batching", "micro-batch"), ("decode phase", "decode")]),
    # a name hyphened on before the term that begins no term reads as the name of a
    # method of its own (GRPO-LoRA, dev, linked; MTL-LoRA, QAT-LoRA, RAD-TTS... null)
    ("Run two 8-GPU nodes with GRPO-LoRA and streaming output with tensor parallel.",
     [("GPU", "gpu"), ("streaming", "streaming"), ("tensor parallel", "tensor-parallelism")]),
    # a word that says what kind, a term or a number format hyphened on: still the term
    ("Multi-GPU runs use Per-tensor scales, FP32-FP16 weights and Prefill-Decode pools.",
     [("GPU", "gpu"), ("tensor", "tensor"), ("FP16", "fp16"), ("Prefill", "prefill"),
      ("Decode", "decode")]),
    ("It uses PagedAttention and continuous batching, each step.",
     [("PagedAttention", "paged-attention"), ("continuous batching", "continuous-batching")]),
    # a quoted phrase that cites no work; a quote that a title-like one closes
    ('We call it "inference at the edge of the network" here, as in 2024 papers.',
     [("inference", "inference")]),
    ('Set "a" and "b". The speech recognition models run in "fast mode" (2024 tests).',
     [("speech recognition", "asr")]),
    # quotes around one common word make a value; around several words, they introduce it
    ('Known as "continuous batching", or "mixed-precision" training.',
     [("continuous batching", "continuous-batching"), ("mixed-precision", "mixed-precision")]),
    ("Download a Hugging Face dataset with the Hugging Face transformers library.",
     [("Hugging Face", "hugging-face-hub"), ("dataset", "dataset")]),
    ("Use 100 warmup steps, a learning rate warmup and 10% tokens/second more.",
     [("warmup", "warmup"), ("learning rate warmup", "warmup"), ("tokens/second", "tokens-per-second")]),
    # coordinated words share the head after the last one
    ("FSDP runs over tensor and expert parallel shards.",
     [("FSDP", "fsdp"), ("tensor", "tensor-parallelism"), ("expert parallel", "expert-parallelism")]),
    ("Mix tensor, pipeline, and expert parallelism; a tensor and a GPU.",
     [("tensor", "tensor-parallelism"), ("pipeline", "pipeline-parallelism"),
      ("expert parallelism", "expert-parallelism"), ("tensor", "tensor"), ("GPU", "gpu")]),
    ("Call it on the decode engine; decode latency drops.",
     [("decode", "decode"), ("decode", "decode"), ("latency", "latency")]),
    # Docker in any case: writers name the product in lower case too
    ("It needs docker installed, or a local docker deployment.",
     [("docker", "docker"), ("docker", "docker")]),
    # labels are short: a clause before a colon is prose; a term later in the item links
    ("FSDP shards parameters: see below.", [("FSDP", "fsdp")]),
    ("Inference: see the guide on inference.", [("inference", "inference")]),
    # a sentence-opening small word says nothing; a model's size or a unit is no model id
    ("The Inference runs on CUDA-12 with an A100-80GB and GPU-accelerated kernels.",
     [("Inference", "inference"), ("CUDA", "cuda"), ("A100-80GB", "nvidia-a100"), ("GPU", "gpu")]),
    ("Switch to inference mode to learn the tokens.", [("inference", "inference"), ("tokens", "token")]),
    # what the rules on CUDA's components and NLI leave linked
    ("Build the backend with CUDA and run inference in FP16 or float16.",
     [("CUDA", "cuda"), ("inference", "inference"), ("FP16", "fp16"), ("float16", "fp16")]),
    # the Hub in its phrases; the plural of an alias; a longer name of a key
    ("Pull the container images first.", [("container images", "docker-image")]),
    ("It injects an SSH public key.", [("SSH public key", "ssh-key")]),
    # a quote closed in an earlier paragraph opens no title in this one
    ('He said "stop and wait for the\n\nspeech recognition model", Speech Communication,'
     ' 2018.', [("speech recognition", "asr")]),
    # a dash that is no option's: a list's bullet, a hyphened word
    ("- GPU memory grows; the server-streaming path keeps latency low.",
     [("GPU memory", "vram"), ("streaming", "streaming"), ("latency", "latency")]),
    # quoted words before a capitalised name with no year after it are no cited title
    ('Their "guide to speech recognition on device", Speech Communication, is online.',
     [("speech recognition", "asr")]),
    ("Download the model from Hugging Face.", [("Hugging Face", "hugging-face-hub")]),
    ("Use the Hugging Face model ID here.", [("Hugging Face", "hugging-face-hub")]),
    ("Pick the Euler sampler and 30 steps.", [("sampler", "sampler")]),
    # after a gerund, "that" starts a relative clause: the gerund is the term
    ("It adds selective activation checkpointing that recomputes matmuls.",
     [("activation checkpointing", "activation-checkpointing")]),
    # a word in the singular before "library" or "module" says what the package is for
    ("TensorRT is an inference library.", [("inference", "inference")]),
    ("It is a tensor library; loss modules compute it.",
     [("tensor", "tensor"), ("loss", "loss-function")]),
    # a width is no version: FP16-speed is FP16 (FLUX.1-dev is a variant's name)
    ("It gives FP32-range with FP16-speed.", [("FP16", "fp16")]),
    # a space where the term's spelling has none: "to PP" is no "top p"
    # torch is PyTorch; an acronym's number is its degree, as prose writes it
    ("It needs torch 2.4 and uses TP=4, PP=1 with LR=1e-4.",
     [("torch", "pytorch"), ("TP", "tensor-parallelism"), ("PP", "pipeline-parallelism"),
      ("LR", "learning-rate")]),
    ("The H100 has 132 SMs; each SM runs warps.",
     [("H100", "nvidia-h100"), ("SMs", "streaming-multiprocessor"),
      ("SM", "streaming-multiprocessor")]),
    ("Freeze the network's remaining parameters.", [("parameters", "parameter")]),
    # a count of parameters after a CLI flag in the same sentence is still the model's
    ("Set --port on the CLI; the model has 7 billion parameters.",
     [("parameters", "parameter")]),
    ("It runs model inferences on GPUs.", [("model inferences", "inference"), ("GPUs", "gpu")]),
    ("Move from TP to PP, then use top p.",
     [("TP", "tensor-parallelism"), ("PP", "pipeline-parallelism"), ("top p", "top-p-sampling")]),
])
def test_what_the_rules_still_link(text: str, expected: list[tuple[str, str]]) -> None:
    assert linked(text) == expected


def test_settled_terms_are_not_judged_again() -> None:
    """Where a page links each term once, a term linked already is passed over (its
    occurrence still takes its words, so no shorter term is found inside it)."""
    from sphinxcontrib_gpuglossary.linking.matcher import SETTLED

    text = "The KV cache grows; a second KV cache and a GPU."
    assert linked(text, MATCHER) == [("KV cache", "kv-cache"), ("KV cache", "kv-cache"),
                                     ("GPU", "gpu")]
    found = MATCHER.candidates(text, settled={"kv-cache"})
    assert [(text[c.start:c.end], c.term, c.reason) for c in found] == [
        ("KV cache", "kv-cache", SETTLED), ("KV cache", "kv-cache", SETTLED),
        ("GPU", "gpu", None)]
    assert MATCHER.find(text, settled={"kv-cache"}) == [(44, 47, "gpu")]



def test_the_sites_own_name_holding_a_term_is_a_longer_name() -> None:
    """``project`` names the site's product: a term in it with more words is part of the
    name; a project named as the term itself (Megatron Core's own site) still links."""
    named = Matcher.build(SEEDED, ["en"], site_names=["Intel&#174 Extension for PyTorch*"])
    text = "Intel® Extension for PyTorch* speeds up PyTorch."
    assert linked(text, named) == [("PyTorch", "pytorch")]
    assert why("Intel® Extension for PyTorch* runs.", "PyTorch", named) == \
        "part of the site's own name 'Intel® Extension for PyTorch*' (conf.py project)"
    itself = Matcher.build(SEEDED, ["en"], site_names=["Megatron Core"])
    assert linked("Megatron Core trains it.", itself) == [("Megatron Core", "megatron-lm")]
    # a site named as a common word names its product with it, written as the site writes
    # it; the word in lower case is still the word
    common = Matcher.build(SEEDED, ["en"], site_names=["Streaming"])
    text = "Streaming shuffles shards; token streaming sends each token."
    assert why(text, "Streaming", common) == "the site's own name 'Streaming' (conf.py project)"
    assert ("token streaming", "streaming") in linked(text, common)
    # a project named as its package is the name written with spaces
    package = Matcher.build(SEEDED, ["en"], site_names=["pytorch_geometric"])
    assert linked("Pytorch Geometric builds on PyTorch.", package) == [("PyTorch", "pytorch")]
    # so is a project named as its repository; a term just before the site's name
    # qualifies it (a product built on the term's) and is part of that name
    stack = Matcher.build(SEEDED, ["en"], site_names=["production-stack"])
    text = "The vLLM Production Stack runs vLLM on two GPUs."
    assert [(start, term) for start, _end, term in stack.find(text)] == [
        (text.index("vLLM", 5), "vllm"), (text.index("GPUs"), "gpu")]
    assert why("Deploy the vLLM production-stack.", "vLLM", stack) == \
        "part of 'vLLM production-stack': the site's own name after it (conf.py project)"
    assert linked("Its vLLM Production workers.", stack) == [("vLLM", "vllm")]
    # one word after a term may be what the term's thing is for: a JAX plugin for ROCm
    assert linked("Install the ROCm JAX plugin.", Matcher.build(SEEDED, ["en"], site_names=["JAX"])) \
        == [("ROCm", "rocm")]


def test_a_trademark_sign_joins_words_as_a_space_does() -> None:
    assert linked("Install the NVIDIA® CUDA® Toolkit first.") == [("CUDA® Toolkit", "cuda-toolkit")]


def test_a_phrase_of_another_sense_is_not_the_term_where_it_stands() -> None:
    assert why("Numba's type inference is fast.", "inference") == \
        "part of 'type inference' (the term's linking.other_senses)"
    assert why("Create an access token first.", "token") == \
        "part of 'access token' (the term's linking.other_senses)"


def said(phrase: str) -> str:
    """What :meth:`Matcher.page_senses` says of a term whose ``other_senses`` *phrase*
    the page holds."""
    return f"{phrase!r} on this page: the word means that here (the term's linking.other_senses)"


def test_one_sense_per_page_turns_down_the_terms_one_word_spellings() -> None:
    """A page that says *type inference* means it by *inference* throughout: before the
    phrase and after it, in any case; the page's other terms are untouched."""
    page = "Inference of the types runs first.\n\nThe compiler's type inference is fast."
    senses = MATCHER.page_senses(page)
    assert senses == {"inference": said("type inference")}
    text = "Inference of the types runs on the GPU."
    assert linked(text) == [("Inference", "inference"), ("GPU", "gpu")]
    assert [(text[s:e], t) for s, e, t in MATCHER.find(text, senses=senses)] == [("GPU", "gpu")]
    reason = next(c.reason for c in MATCHER.candidates(text, senses=senses) if c.term == "inference")
    assert reason == "'type inference' on this page: the word means that here " \
        "(the term's linking.other_senses)"


@pytest.mark.parametrize(("page", "senses"), [
    ("Set your HF tokens\nin the shell.", {"token": "HF tokens"}),  # plural, across a line
    ("Pass a Hugging-Face token.", {"token": "Hugging-Face token"}),  # hyphened
    ("It streams 80 tokens per second.", {}),
    ("A pre-processing data transformers step.", {"transformer": "data transformers"}),
    ("The prototype inference server.", {}),  # a word that only ends like the phrase's
    ("Keep the accuracy loss small.", {}),  # a not_in phrase: the page may speak of loss
])
def test_what_a_page_says_of_its_senses(page: str, senses: dict[str, str]) -> None:
    assert MATCHER.page_senses(page) == {term: said(phrase) for term, phrase in senses.items()}


def spelt_out(name: str, acronym: str) -> str:
    """What :meth:`Matcher.page_senses` says of a term whose acronym the page spells out
    as *name*."""
    return f"{name!r} on this page: {acronym} stands for that here"


@pytest.mark.parametrize(("page", "senses"), [
    # skrl's page of an algorithm: AMP is not automatic mixed precision there
    ("Adversarial Motion Priors (AMP)\n\nAMP is a model-free algorithm.",
     {"mixed-precision": spelt_out("Adversarial Motion Priors", "AMP")}),
    ("AMP (Adversarial Motion Priors) learns from motion clips.",
     {"mixed-precision": spelt_out("Adversarial Motion Priors", "AMP")}),
    # no space before the parenthesis: the plain look that comes first must find it too
    ("AMP(Adversarial Motion Priors) learns from motion clips.",
     {"mixed-precision": spelt_out("Adversarial Motion Priors", "AMP")}),
    ("We train with DP (Differential Privacy) and log the DP budget.", {}),  # no DP term
    # the term's own name spelt out, a word of it, or no name at all
    ("Automatic Mixed Precision (AMP) halves the memory.", {}),
    ("Shard the layers with TP (tensor parallelism).", {}),
    ("Supervised Fine-Tuning (SFT) comes first.", {}),
    ("Wrap the step in AMP (and a GradScaler).", {}),
    ("Motion priors help. Then (AMP) follows.", {}),
])
def test_a_page_that_spells_out_an_acronym_as_another_name(page: str,
                                                           senses: dict[str, str]) -> None:
    assert MATCHER.page_senses(page) == senses


def test_an_acronym_spelt_out_as_another_name_is_not_linked_on_that_page() -> None:
    page = "Adversarial Motion Priors (AMP)\n\nAMP trains on the GPU."
    text = page.split("\n")[-1]
    assert linked(text) == [("AMP", "mixed-precision"), ("GPU", "gpu")]
    assert [(text[s:e], t) for s, e, t in MATCHER.find(text, senses=MATCHER.page_senses(page))] \
        == [("GPU", "gpu")]


def test_one_sense_per_page_leaves_longer_spellings_linked(tmp_path: Path) -> None:
    """Only a one-word spelling takes the page's sense: a longer name of the term is
    still the term (*spinning widget*), and a term the site switched off has no sense."""
    text = TERMS.replace("not_in: [widget factory,", "other_senses: [widget factory]\n"
                                                     "      not_in: [")
    text = text.replace("aliases: {en: [wdg]}", "aliases: {en: [wdg, spinning widget]}")
    text = text.replace("only_in: [rack widget, widget *, \"# widgets\"]", "only_in: []")
    matcher = user_matcher(tmp_path, text)
    senses = matcher.page_senses("Our widget factory makes them.")
    assert senses == {"widget": said("widget factory")}
    sentence = "The widget and the spinning widget."
    assert [(sentence[s:e], t) for s, e, t in matcher.find(sentence, senses=senses)] == [
        ("spinning widget", "widget")]
    path = tmp_path / "terms.yaml"
    off = Matcher.build(load_glossary([GlossaryFile(path, "terms.yaml")]), ["en"],
                        exclude=["widget"])
    assert off.page_senses("Our widget factory makes them.") == {}


def test_an_other_senses_phrase_that_is_only_the_terms_words_is_reported(
        tmp_path: Path) -> None:
    """It would turn the word down on every page that uses it."""
    p = only(problems(tmp_path, TERMS.replace("not_in: [widget factory,",
                                              "other_senses: [widgets]\n      not_in: [")))
    assert p.line == 9
    assert "linking phrase 'widgets' of term 'widget' is only the term's own words, so " \
        "every page that uses the word would read it in another sense" in p.message


def field_of(page: str) -> str:
    return f"none of {page} on this page: the word may mean something else here " \
        "(the term's linking.only_on_pages_with)"


def test_a_word_of_the_terms_field_on_the_page_lets_its_one_word_spellings_link(
        tmp_path: Path) -> None:
    """``only_on_pages_with``: a page that names none of the words of the term's field
    does not link its one-word spellings; a longer name of the term still links there,
    and a page that names one (in any case, hyphened or across a line) links the word."""
    text = TERMS.replace("only_in: [rack widget, widget *, \"# widgets\"]",
                         "only_on_pages_with: [gear, gear train, C++]")
    text = text.replace("aliases: {en: [wdg]}", "aliases: {en: [wdg, spinning widget]}")
    matcher = user_matcher(tmp_path, text)
    sentence = "The widget and the spinning widget."
    senses = matcher.page_senses(sentence)
    assert senses == {"widget": field_of("'gear', 'gear train', 'C++'")}
    assert [(sentence[s:e], t) for s, e, t in matcher.find(sentence, senses=senses)] == [
        ("spinning widget", "widget")]
    assert next(c.reason for c in matcher.candidates(sentence, senses=senses)
                if sentence[c.start:c.end] == "widget") == senses["widget"]
    assert matcher.page_senses("The widget and the GEAR.") == {}
    assert matcher.page_senses("The widget; a GEAR-\ntrain.") == {}
    assert matcher.page_senses("The widget and the gears.") != {}  # words as listed
    assert matcher.page_senses("The widget in C++.") == {}
    assert matcher.page_senses("The widget and the gearbox.") != {}  # whole words only
    assert matcher.page_senses("No term here, no gear.") == {}  # the term's word is absent


@pytest.mark.parametrize("page", [
    "Numba reflects changes to typed containers back to the interpreter.",
    "Arrays are containers of a fixed size; compiled code cannot grow a container.",
])
def test_container_links_only_on_a_page_of_containers_that_run(page: str) -> None:
    """A data structure called a container (as on Numba's, JAX's and Warp's pages) is
    not linked on a page that names nothing of running containers."""
    senses = MATCHER.page_senses(page)
    assert "linking.only_on_pages_with" in senses["container"]
    assert [t for _s, _e, t in MATCHER.find(page, senses=senses)] == []


@pytest.mark.parametrize("page", [
    "Mount the data set into the container before the job starts.",
    "The Kubernetes scheduler places each container on a node.",
    "Restart the container after the next container release.",
])
def test_container_links_on_a_page_of_running_containers(page: str) -> None:
    senses = MATCHER.page_senses(page)
    assert "container" not in senses
    assert "container" in [t for _s, _e, t in MATCHER.find(page, senses=senses)]


def test_a_page_of_another_field_leaves_the_seeded_words_unlinked() -> None:
    """*streaming* on a page about records names none of the words of output
    streaming; the same sentence links on a page that does."""
    text = "Enable streaming for the records."
    senses = MATCHER.page_senses(text)
    assert MATCHER.find(text, senses=senses) == []
    assert "linking.only_on_pages_with" in senses["streaming"]
    page = "Enable streaming so that each generated token is sent at once."
    assert ("streaming", "streaming") in [(page[s:e], t) for s, e, t in
                                          MATCHER.find(page, senses=MATCHER.page_senses(page))]


@pytest.mark.parametrize(("page", "linked"), [
    # a network's upsampling layers (N2D2, dev) and an image resize are no upscaler
    ("Without upscaling, unpooling or deconvolution, the output size is smaller.", False),
    ("Run the generated images through an ESRGAN upscaler.", True),
    ("For upscaling, load the Stable Diffusion x4 upscaler.", True),
])
def test_upscaling_links_only_on_a_page_of_generated_images(page: str, linked: bool) -> None:
    found = [t for _s, _e, t in MATCHER.find(page, senses=MATCHER.page_senses(page))]
    assert ("upscaler" in found) is linked


@pytest.mark.parametrize(("page", "linked"), [
    # a measurement (Lightning Flash's forecasts, TT-Buda's chip), not a sampling setting
    ("Forecast a quantity that varies in time: stock prices, temperature, etc.", False),
    ("The chip's temperature is read every second.", False),
    ("Raise the temperature for more varied generations.", True),
    ("Set the temperature and top_p of the sampling.", True),
])
def test_temperature_links_only_on_a_page_of_generated_text(page: str, linked: bool) -> None:
    found = [t for _s, _e, t in MATCHER.find(page, senses=MATCHER.page_senses(page))]
    assert ("temperature" in found) is linked


@pytest.mark.parametrize(("text", "word", "reason"), [
    # a gerund whose object is models (SuperGradients): a verb
    ("It helps when fine-tuning pre-trained models on new data.", "fine-tuning",
     "part of 'fine-tuning * * models' (the term's linking.not_in)"),
    ("Fine-tuning language models is cheap.", "Fine-tuning",
     "part of 'fine-tuning * models' (the term's linking.not_in)"),
    # a fixed mapping of the input coordinates (DeepXDE), not a learnt embedding
    ("We use Fourier feature embeddings of the coordinates.", "embeddings",
     "part of 'Fourier feature embedding' (the term's linking.not_in)"),
])
def test_verbs_of_models_and_fixed_embeddings_are_not_the_terms(text: str, word: str,
                                                                reason: str) -> None:
    assert why(text, word) == reason


@pytest.mark.parametrize(("text", "word", "reason"), [
    # methods named with the term's word that are not its sense (Spinning Up, garage,
    # SpeechBrain, snnTorch, hls4ml)
    ("Add an entropy regularization term to the loss.", "regularization",
     "part of 'entropy regularization' (the term's linking.not_in)"),
    ("Subword regularization samples segmentations.", "regularization",
     "part of 'subword regularization' (the term's linking.not_in)"),
    ("The policy is updated by gradient ascent.", "gradient",
     "part of 'gradient ascent' (the term's linking.not_in)"),
    ("Spiking neurons are trained with surrogate gradients.", "gradients",
     "part of 'surrogate gradient' (the term's linking.not_in)"),
    ("The spike time carries the value in latency coding.", "latency",
     "part of 'latency coding' (the term's linking.not_in)"),
    ("It runs automatic precision inference on the layers.", "inference",
     "part of 'automatic precision inference' (the term's linking.not_in)"),
    ("Try hyperparameter fine-tuning next.", "fine-tuning",
     "part of 'hyperparameter fine-tuning' (the term's linking.not_in)"),
    # other senses (production-stack, DeepChem)
    ("Paste your HuggingFace token here.", "token",
     "part of 'HuggingFace token' (the term's linking.other_senses)"),
    ("It helps with probabilistic inference.", "inference",
     "part of 'probabilistic inference' (the term's linking.other_senses)"),
    # work spread over threads or network cards (mllm, Mooncake)
    ("Split the work into chunks for better load balancing.", "load balancing",
     "'chunks' in the same sentence (the term's linking.not_near)"),
    ("It drives two NICs with load balancing.", "load balancing",
     "'nics' in the same sentence (the term's linking.not_near)"),
    # a name made a verb with an apostrophe (Raster Vision)
    ("After SSH'ing into the instance, install it.", "SSH", 'a verb: "SSH\'ing"'),
    ("Once SSH\u2019d in, run the script.", "SSH", "a verb: 'SSH\u2019d'"),
    # a code of conduct's words (the Contributor Covenant, on Raster Vision's site)
    ("Unwelcome sexual attention or advances are not tolerated.", "attention",
     "the idiom 'sexual attention'"),
    # an idiom with a word between, and an image's gradient (Kornia)
    ("ViT has drawn great attention in vision.", "attention",
     "the idiom 'drawn * attention'"),
    ("Lines are well defined by the image gradient.", "gradient",
     "part of 'image gradient' (the term's linking.not_in)"),
    # an output layer named as a whole (DyNet)
    ("It builds LSTM networks or hierarchical softmax.", "softmax",
     "part of 'hierarchical softmax' (the term's linking.not_in)"),
    # a loss named after what it compares (DeepPavlov)
    ("3. Cosine embedding loss between hidden states.", "embedding",
     "part of 'cosine embedding loss' (the term's linking.not_in)"),
])
def test_methods_senses_verbs_and_idioms_are_not_the_terms(text: str, word: str,
                                                          reason: str) -> None:
    """Each written after a pattern of one development site (named beside it)."""
    assert why(text, word) == reason


def test_a_possessive_is_no_verb() -> None:
    assert linked("We SSH into the node. The GPU's memory is full.") == \
        [("SSH", "ssh"), ("GPU", "gpu")]


def test_request_load_balancing_and_low_precision_inference_stay_linked() -> None:
    assert linked("It simulates low-precision inference on the host.") == \
        [("inference", "inference")]
    assert linked("The router handles load balancing across model replicas.") == \
        [("load balancing", "load-balancer")]


def test_fine_tuning_as_a_noun_stays_linked() -> None:
    assert linked("Fine-tuning recipes are in the repository.") == [("Fine-tuning", "fine-tuning")]
    # coordinated with another noun, no wildcard of a phrase stands for the shared head
    # (Kubeflow Trainer)
    assert linked("It covers LLM fine-tuning and training of AI models.") == \
        [("fine-tuning", "fine-tuning")]


def test_overfit_is_a_verb_not_a_form_of_overfitting() -> None:
    """Writers say *the model starts to overfit* (five such places in the corpus, none a
    link); the noun links."""
    text = "The model starts to overfit after ten epochs, a sign of overfitting."
    assert [(text[c.start:c.end], c.term) for c in MATCHER.candidates(text)
            if c.term == "overfitting"] == [("overfitting", "overfitting")]


def test_the_words_of_a_terms_field_from_a_later_file_add_up(tmp_path: Path) -> None:
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text(TERMS.replace("only_in: [rack widget, widget *, \"# widgets\"]",
                                   "only_on_pages_with: [gear]"))
    second.write_text("terms:\n  - id: widget\n    linking: {only_on_pages_with: [rack, gear]}\n")
    glossary = load_glossary([GlossaryFile(first, "a.yaml"), GlossaryFile(second, "b.yaml")])
    assert glossary.terms["widget"].linking.only_on_pages_with == ("gear", "rack")


@pytest.mark.parametrize("page", [
    "Controls the EP intra-thread count of the session.",
    "Lets sessions share one EP thread pool; dump EP subgraphs for debugging.",
])
def test_ep_links_only_on_a_page_of_parallelism_or_experts(page: str) -> None:
    """ONNX Runtime's EP (an execution provider, as on sherpa-onnx's provider pages) is
    not expert parallelism: a page that names no expert, MoE or parallelism leaves it."""
    senses = MATCHER.page_senses(page)
    assert "linking.only_on_pages_with" in senses["expert-parallelism"]
    assert MATCHER.find(page, senses=senses) == []


def test_ep_links_beside_the_other_parallelisms() -> None:
    page = "Combine TP, PP and EP for a mixture of experts."
    senses = MATCHER.page_senses(page)
    assert "expert-parallelism" not in senses
    assert ("EP", "expert-parallelism") in [(page[s:e], t) for s, e, t in
                                            MATCHER.find(page, senses=senses)]


def test_gradient_descent_and_the_transcription_network_are_longer_names() -> None:
    """The optimiser (*stochastic gradient descent*) and the transducer's encoder (*the
    transcription network*) are not the gradient and the transcript."""
    assert linked("Weights are still trained during gradient descent.") == []
    assert linked("Use stochastic gradient descent with momentum.") == []
    assert linked("The encoder (the transcription network) is an LSTM.") == []
    assert linked("Clip the gradient before the step.") == [("gradient", "gradient")]
    assert linked("Save the transcription to a file.") == [("transcription", "transcript")]


def test_a_devices_temperature_is_no_sampling_temperature() -> None:
    """A GPU's temperature in monitoring output (*Device temperature in degrees C*) is a
    longer name; the sampling parameter still links."""
    assert linked("Device temperature in degrees C, as nvidia-smi shows it.") == []
    assert linked("The temperature in degrees Celsius of the card.") == []
    assert linked("Lower the temperature for more deterministic output.") == \
        [("temperature", "temperature")]
    # not_near reads whole words: the entropy coefficient's "alpha", not "alphabetical"
    assert linked("Lower the temperature; the alphabetical list is below.") == \
        [("temperature", "temperature")]


@pytest.mark.parametrize(("text", "word", "reason"), [
    # a common word written in capitals names a constant (an enum value, a resource label)
    ("The ONNX types are BOOL, INT8, FLOAT16, FLOAT32, and DOUBLE.", "FLOAT16",
     "a common word in capitals, as code writes a constant: 'FLOAT16'"),
    ("Label the worker TOKEN with a CPU.", "TOKEN",
     "a common word in capitals, as code writes a constant: 'TOKEN'"),
    # a label with the full-width colon of Chinese text (TNN's English pages)
    ("Attention：demo sdk need to use the model recommended.", "Attention",
     "a label that opens the paragraph: 'Attention：'"),
    # the British spelling is restricted to the phrases of its field as the American is
    ("The first time the normalisation is executed, it is slow.", "normalisation",
     "not in one of the phrases of the term's linking.only_in"),
    # an authentication token where it is kept or sent
    ("Send the token in the header of each call.", "token",
     "part of 'the token in the header' (the term's linking.not_in)"),
    # a Gaussian process's posterior, computed: statistics, not running a model
    ("The cubic scaling of GP inference hurts here.", "inference",
     "part of 'GP inference' (the term's linking.other_senses)"),
    # a gerund after *not* is a verb, as after *be*
    ("When not fine-tuning, stack the embeddings.", "fine-tuning",
     "a verb: 'not fine-tuning'"),
    # a product's name before a word that names another project's part made for it
    ("Here is a custom Ollama provider for the stack.", "Ollama",
     "a component named after the product: 'Ollama provider'"),
    ("Start the Ollama distribution with one command.", "Ollama",
     "a component named after the product: 'Ollama distribution'"),
    # configuration values, not a model's weights
    ("We train the detector with default model parameters.", "parameters",
     "part of 'default model parameters' (the term's linking.not_in)"),
    # other projects named after PyTorch (Lightning Flash's backbones and its ORT flag)
    ("Backbones provided by PyTorch Image Models (TIMM) are listed here.", "PyTorch",
     "part of 'PyTorch Image Models' (the term's linking.not_in)"),
    ("Enabling Torch ORT requires a single flag.", "Torch",
     "part of 'Torch ORT' (the term's linking.not_in)"),
])
def test_constants_components_and_default_parameters_are_not_the_term(
        text: str, word: str, reason: str) -> None:
    assert why(text, word) == reason


@pytest.mark.parametrize(("text", "expected"), [
    # words the glossary writes in capitals stay linked so written
    ("Run it on an H100 or A100 GPU with CUDA and FP16.",
     [("H100", "nvidia-h100"), ("A100", "nvidia-a100"), ("GPU", "gpu"), ("CUDA", "cuda"),
      ("FP16", "fp16")]),
    ("It runs on ROCM and serves with VLLM.", [("ROCM", "rocm"), ("VLLM", "vllm")]),
    # words run together, in capitals, of a term whose words are apart (KV cache)
    ("Move the KVCACHE between devices.", [("KVCACHE", "kv-cache")]),
    # a common word in running text, and a provider that is no product's part
    ("The float16 tensor takes half the memory of a GPU provider's instance.",
     [("float16", "fp16"), ("tensor", "tensor"), ("GPU", "gpu")]),
    ("Export it from PyTorch to ONNX.", [("PyTorch", "pytorch")]),
    # a framework's frontend is often its own
    ("Call the cuDNN frontend from PyTorch frontend APIs.",
     [("cuDNN", "cudnn"), ("PyTorch", "pytorch")]),
])
def test_capitals_and_products_that_stay_linked(text: str, expected: list[tuple[str, str]]) -> None:
    assert linked(text) == expected


def test_a_products_name_in_a_table_under_a_column_of_providers_is_the_product() -> None:
    # a cell's text is read before its column's head (context.column_head): "Ollama Provider"
    assert why("Ollama Provider", "Ollama") is None


@pytest.mark.parametrize(("text", "expected"), [
    # the Hub's name as sites write it in prose, in small letters, where it means the Hub
    ("Try the model in the following huggingface space.", [("huggingface", "hugging-face-hub")]),
    ("If you cannot reach the huggingface repositories, use a mirror.",
     [("huggingface", "hugging-face-hub")]),
    # and not where it means the library, nor in code
    ("Install the huggingface transformers library.", []),
    ("Call huggingface_hub.snapshot_download first.", []),
])
def test_the_hubs_name_in_small_letters(text: str, expected: list[tuple[str, str]]) -> None:
    assert linked(text) == expected


@pytest.mark.parametrize(("text", "word", "reason"), [
    # a method's name spelt out after its acronym (lightly's iBOT page; CLIP's)
    ("iBOT (image BERT pre-training with Online Tokenizer) learns from masked patches.",
     "pre-training",
     "part of 'image BERT pre-training with Online Tokenizer', the name the acronym before it "
     "spells out"),
    ("We use CLIP (Contrastive Language-Image Pre-Training) to embed both.", "Pre-Training",
     "part of 'Contrastive Language-Image Pre-Training', the name the acronym before it "
     "spells out"),
    ("Models with GAU(gated attention unit) layers train fast.", "attention",
     "part of 'gated attention unit', the name the acronym before it spells out"),
    # the name first, its acronym after it (NequIP's ConFIG; PyTorch's SDPA): the
    # acronym's capitals are the initials
    ("It implements the Conflict-free inverse gradient (ConFIG) approach.", "gradient",
     "part of 'Conflict-free inverse gradient (ConFIG)', the name the acronym after it "
     "stands for"),
    ("Use the scaled dot-product attention (SDPA) kernels.", "attention",
     "part of 'scaled dot-product attention (SDPA)', the name the acronym after it "
     "stands for"),
])
def test_a_term_inside_the_name_an_acronym_spells_out_is_not_the_term(
        text: str, word: str, reason: str) -> None:
    assert why(text, word) == reason


@pytest.mark.parametrize(("text", "expected"), [
    # the term is the whole name the acronym spells out
    ("Shard the layers with TP (tensor parallelism) on eight GPUs.",
     [("TP", "tensor-parallelism"), ("tensor parallelism", "tensor-parallelism"),
      ("GPUs", "gpu")]),
    # every word of the name begins a term: two terms, not a name
    ("PD (Prefill-Decode) disaggregation splits the work.",
     [("Prefill", "prefill"), ("Decode", "decode")]),
    # the initials are not the acronym's letters: an aside, not its name spelt out
    ("Keep the GPU (and its KV cache) busy.", [("GPU", "gpu"), ("KV cache", "kv-cache")]),
    ("Run it on the GPU (an H100 for inference).",
     [("GPU", "gpu"), ("H100", "nvidia-h100"), ("inference", "inference")]),
    # the term is the whole name before the acronym, or the clause ends before it
    ("Enable Tensor Parallelism (TP) for large models.",
     [("Tensor Parallelism", "tensor-parallelism"), ("TP", "tensor-parallelism")]),
    ("Train on the GPU, then export (ONNX) the model.", [("GPU", "gpu")]),
    ("Use the GPU (A100) for inference.",
     [("GPU", "gpu"), ("A100", "nvidia-a100"), ("inference", "inference")]),
    # the acronym after the name is the term too: the name is the term's
    ("Fixed the auto-mixed-precision (AMP) mode.",
     [("mixed-precision", "mixed-precision"), ("AMP", "mixed-precision")]),
])
def test_terms_in_parentheses_that_spell_out_no_acronym_stay_linked(
        text: str, expected: list[tuple[str, str]]) -> None:
    assert linked(text) == expected


def test_a_term_in_the_plural_does_not_qualify_the_word_after_it() -> None:
    """*parameter memory* is an ``only_in`` phrase; *parameters and allocated memory* holds
    none (embARC MLI's function arguments): a noun before the noun it qualifies is singular."""
    assert why("The caller provides the correct parameters and allocated memory.",
               "parameters") == "not in one of the phrases of the term's linking.only_in"
    assert linked("It frees parameter and optimizer memory.") == [("parameter", "parameter")]
    assert linked("Sharded parameters and gradients stay on the GPU.") == \
        [("parameters", "parameter"), ("gradients", "gradient"), ("GPU", "gpu")]


@pytest.mark.parametrize(("text", "word", "reason"), [
    # physical quantities, not a loss function's or sampling's (aihwkit's analog devices)
    ("The energy losses in the resistor are small.", "losses",
     "part of 'energy loss' (the term's linking.not_in)"),
    ("Power loss grows with the current.", "loss",
     "part of 'power loss' (the term's linking.not_in)"),
    ("The device drifts at room temperature.", "temperature",
     "part of 'room temperature' (the term's linking.not_in)"),
    # a chip's sensors (tt-smi's telemetry), a physical tensor, a product of tensors
    ("It reads the voltage regulator (VREG) temperature.", "temperature",
     "'voltage' in the same sentence (the term's linking.not_near)"),
    ("The stress is the derivative with respect to the strain tensor.", "tensor",
     "part of 'strain tensor' (the term's linking.not_in)"),
    ("The library accelerates tensor product operations.", "tensor",
     "part of 'tensor product' (the term's linking.not_in)"),
    ("The main aspect that deserves user attention is the script.", "attention",
     "the idiom 'deserves * attention'"),
])
def test_physical_losses_and_temperatures_are_not_the_terms(text: str, word: str,
                                                            reason: str) -> None:
    assert why(text, word) == reason


def test_a_loss_and_a_temperature_beside_physical_ones_stay_linked() -> None:
    assert linked("The power loss grows while the training loss goes down.") == \
        [("loss", "loss-function")]
    assert linked("Keep the room temperature steady and set the temperature to 0.7.") == \
        [("temperature", "temperature")]
