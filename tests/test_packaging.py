"""The wheel carries data, assets and catalogs; a fresh virtual environment can build a site."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

import sphinxcontrib_gpuglossary

from .conftest import ROOTS

PROJECT = Path(__file__).parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, PROJECT],
                   check=True, capture_output=True, text=True)
    (found,) = out.glob("sphinxcontrib_gpuglossary-*.whl")
    return found


def test_wheel_holds_data_assets_and_compiled_catalogs(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    package = Path(sphinxcontrib_gpuglossary.__file__).parent
    expected = {p.relative_to(package.parent).as_posix() for pattern in
                ("data/seeded/*.yaml", "static/*", "locale/*/LC_MESSAGES/*.mo")
                for p in package.glob(pattern)}
    assert len(expected) >= 10 + 2 + 5
    assert expected <= names


def test_one_source_for_the_version(wheel: Path) -> None:
    metadata = next(n for n in zipfile.ZipFile(wheel).namelist() if n.endswith("METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert f"\nVersion: {sphinxcontrib_gpuglossary.__version__}\n" in text


def test_a_fresh_environment_installs_the_wheel_and_builds_a_site(wheel: Path,
                                                                  tmp_path: Path) -> None:
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", wheel], check=True,
                   capture_output=True, text=True)
    result = subprocess.run([python, "-m", "sphinx", "-W", "-q", "-b", "html", ROOTS / "test-basic",
                             tmp_path / "out"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "out" / "guide.html").read_text(encoding="utf-8")
    assert 'href="glossary.html#gpu-term-kv-cache"' in html
    assert (tmp_path / "out" / "_static" / "gpuglossary.js").exists()
    cli = subprocess.run([env / "bin" / "gpuglossary", "validate"], capture_output=True, text=True)
    assert cli.returncode == 0 and cli.stdout.startswith("OK:")


def test_the_development_installs_compile_the_package_as_a_regular_install_does() -> None:
    """``make``'s editable installs leave bytecode, as pip's wheel install does: where
    PYTHONDONTWRITEBYTECODE is set, every build would compile the package again."""
    for stamp in (".venv/.test", ".venv/.docs"):
        recipe = subprocess.run(["make", "-n", "-B", stamp], cwd=PROJECT, capture_output=True,
                                text=True, check=True).stdout.splitlines()
        install = next(n for n, line in enumerate(recipe) if "pip install -q -e" in line)
        assert "-m compileall -q sphinxcontrib_gpuglossary" in recipe[install + 1], stamp
