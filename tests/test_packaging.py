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


def _make_recipe(target: str) -> list[str]:
    return subprocess.run(["make", "-n", "-B", target], cwd=PROJECT, capture_output=True,
                          text=True, check=True).stdout.splitlines()


def test_make_test_builds_and_checks_what_a_release_publishes() -> None:
    recipe = _make_recipe("dist-check")
    build = next(n for n, line in enumerate(recipe) if "-m build --outdir dist" in line)
    assert any("rm -rf dist" in line for line in recipe[:build])  # nothing stale is checked
    assert any("twine check --strict dist/*" in line for line in recipe[build:])
    prerequisites = subprocess.run(["make", "-p", "-n", "test"], cwd=PROJECT, capture_output=True,
                                   text=True).stdout
    assert next(line for line in prerequisites.splitlines()
                if line.startswith("test:")).split()[1:].count("dist-check") == 1
    workflow = (PROJECT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert "run: make dist-check" in workflow and "gh-action-pypi-publish" in workflow


def test_the_built_wheel_and_sdist_pass_twine_check_strict(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "build", "--outdir", tmp_path, PROJECT], check=True,
                   capture_output=True, text=True)
    (wheel_path,) = tmp_path.glob("*.whl")
    (sdist,) = tmp_path.glob("*.tar.gz")
    result = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", wheel_path, sdist],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASSED") == 2


def test_the_wheel_says_where_the_project_lives_and_is_typed(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    assert "sphinxcontrib_gpuglossary/py.typed" in archive.namelist()
    metadata = archive.read(next(n for n in archive.namelist() if n.endswith("METADATA"))).decode()
    urls = {line.split(": ", 1)[1].split(", ", 1)[0] for line in metadata.splitlines()
            if line.startswith("Project-URL: ")}
    assert {"Homepage", "Documentation", "Source", "Changelog", "Issues"} <= urls
    assert "Description-Content-Type: text/markdown" in metadata


def test_the_changelog_has_the_current_version() -> None:
    changelog = (PROJECT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"\n## [{sphinxcontrib_gpuglossary.__version__}]" in changelog


def test_the_install_instructions_work_today_and_once_published() -> None:
    """README and quick start: from the repository (a clone, a built wheel) and from PyPI."""
    for page in (PROJECT / "README.md", PROJECT / "docs" / "quickstart.rst"):
        text = page.read_text(encoding="utf-8")
        assert "python -m pip install ./sphinxcontrib-gpuglossary" in text, page
        assert "python -m pip install dist/sphinxcontrib_gpuglossary-*.whl" in text, page
        assert "python -m pip install sphinxcontrib-gpuglossary" in text, page


def test_installing_the_clone_as_the_readme_says_gives_a_working_extension(tmp_path: Path) -> None:
    """The README's first command, from the repository's folder, in a new environment."""
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    result = subprocess.run([python, "-m", "pip", "install", "-q", f"./{PROJECT.name}"],
                            cwd=PROJECT.parent, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    check = subprocess.run([python, "-c", "import sphinxcontrib_gpuglossary as p, sphinx; "
                            "print(p.__version__)"], capture_output=True, text=True)
    assert check.stdout.strip() == sphinxcontrib_gpuglossary.__version__, check.stderr
