"""The documentation keeps up with the code (in the style of sqlite-utils' tests/test_docs.py):
every CLI command and option has its place in docs/cli.md and an example in its help, every
HTTP error code and every configuration key and environment variable is documented, every
"SPEC §N" the code cites is a section of docs/contract.md, and the README stays a front door.
"""

from __future__ import annotations

import enum
import importlib
import pkgutil
import re
from pathlib import Path

import click
import pytest
from pydantic import BaseModel

from scanner.cli import main
from scanner.config import Settings

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
README_MAX_BYTES = 8 * 1024
"""Issue 15: the README is one screen, at most 8 KB."""
FRONT_DOOR = ("make demo   # the main job on bundled real data, in an embedded Weaviate "
              "(sets everything up first)\n"
              "make test   # the whole test suite, integration tests against a real Weaviate "
              "included\n")
"""The README's first commands, as a fresh machine runs them (``.ci/run`` calls ``make test``)."""


def _commands(command: click.Command, path: tuple[str, ...] = ("contrascan",)):
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from _commands(sub, (*path, name))


COMMANDS = {" ".join(path): command for path, command in _commands(main)}
SUBCOMMANDS = {name: command for name, command in COMMANDS.items() if name != "contrascan"}
OPTIONS = [(name, opt) for name, command in SUBCOMMANDS.items() for param in command.params
           if isinstance(param, click.Option) for opt in param.opts if opt.startswith("--")]


@pytest.fixture(scope="module")
def cli_sections() -> dict[str, str]:
    """docs/cli.md split at its ``## contrascan …`` headings: command -> its section's text."""
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    parts = re.split(r"^## (contrascan[^\n]*)\n", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_commands_are_documented(cli_sections, command):
    assert command in cli_sections, f"docs/cli.md has no '## {command}' section"


@pytest.fixture(scope="module")
def option_groups() -> dict[str, set[str]]:
    """docs/cli.md's shorthands: ``"store options" stands for `--weaviate-url`, …`` -> the
    options each names; each of them must have a row of the "Common options" table."""
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    common = text.split("## Common options", 1)[1].split("\n## ", 1)[0]
    rows = "\n".join(line for line in common.splitlines() if line.startswith("| `"))
    groups = {}
    for name, listed in re.findall(r'"(\w+ options)"(.*?)(?="\w+ options"|\.\n)', common,
                                   flags=re.S):
        groups[name] = set(re.findall(r"`(--[\w-]+)`", listed))
        assert groups[name] and all(f"`{o}" in rows for o in groups[name]), name
    return groups


@pytest.mark.parametrize("command,option", OPTIONS)
def test_options_are_documented(cli_sections, option_groups, command, option):
    section = cli_sections.get(command, "")
    by_group = any(name in section and option in options
                   for name, options in option_groups.items())
    assert f"`{option}" in section or by_group, \
        f"{option} of '{command}' is not in its docs/cli.md section"


def test_global_options_are_documented():
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for param in main.params:
        for opt in param.opts:
            if opt.startswith("--") and opt != "--version":
                assert f"`{opt}" in text


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_help_has_an_example(command):
    help_text = COMMANDS[command].help or ""
    assert "Example:" in help_text, f"'{command} --help' shows no example"
    example = help_text.split("Example:", 1)[1]
    assert command.split()[0] in example


def _error_code_enum() -> type[enum.Enum]:
    """``ErrorCode`` of the HTTP API, in ``scanner.api`` or one of its submodules."""
    api = importlib.import_module("scanner.api")
    modules = [api]
    if hasattr(api, "__path__"):
        modules += [importlib.import_module(f"scanner.api.{m.name}")
                    for m in pkgutil.iter_modules(api.__path__)]
    for module in modules:
        codes = getattr(module, "ErrorCode", None)
        if isinstance(codes, type) and issubclass(codes, enum.Enum):
            return codes
    raise AssertionError("no ErrorCode enum in scanner.api")


def _overload_code() -> str:
    """The code the back-pressure middleware answers with (it is not an ``ErrorCode``)."""
    path = next((ROOT / "scanner").rglob("backpressure.py"))
    source = path.read_text(encoding="utf-8")
    return re.search(r'"code": "(\w+)"', source).group(1)


@pytest.mark.parametrize("code", [c.value for c in _error_code_enum()] + [_overload_code()])
def test_http_error_codes_are_documented(code):
    text = (DOCS / "http-api.md").read_text(encoding="utf-8")
    assert re.search(rf"\| \d(?:\d\d|xx) \| `{code}` \|", text), \
        f"error code {code!r} has no row in docs/http-api.md"


def _config_keys(model: type[BaseModel], prefix: str = "") -> list[str]:
    keys = []
    for name, field in model.model_fields.items():
        kind = field.annotation
        item = getattr(kind, "__args__", (None,))[0] if getattr(kind, "__origin__", None) is list \
            else kind
        if isinstance(item, type) and issubclass(item, BaseModel):
            keys += _config_keys(item, f"{prefix}{name}.")
        else:
            keys.append(f"{prefix}{name}")
    return keys


@pytest.mark.parametrize("key", _config_keys(Settings))
def test_config_keys_are_documented(key):
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    table, _, name = key.rpartition(".")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    if not table:  # a top-level table of its own, such as [aliases]
        assert any(line.startswith(f"| `[{name}]`") for line in rows), key
    else:
        table = f"[[{table}]]" if table == "patterns" else f"[{table}]"
        assert any(line.startswith(f"| `{table}") and f"{name}`" in line.split("|")[1]
                   for line in rows), f"{key} has no row in docs/configuration.md"


def _environment_variables() -> list[str]:
    found = set()
    for path in (ROOT / "scanner").rglob("*.py"):
        found |= set(re.findall(r"\bCONTRASCAN_[A-Z_]*[A-Z]\b", path.read_text(encoding="utf-8")))
    return sorted(found)


@pytest.mark.parametrize("variable", _environment_variables())
def test_environment_variables_are_documented(variable):
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    assert f"`{variable}`" in text


def _cited_sections() -> list[str]:
    cited = set()
    for package in ("scanner", "extractors", "benchmarks"):
        for path in (ROOT / package).rglob("*.py"):
            cited |= set(re.findall(r"SPEC §(\d+)", path.read_text(encoding="utf-8")))
    return sorted(cited, key=int)


@pytest.mark.parametrize("section", _cited_sections())
def test_spec_citations_resolve_in_the_contract(section):
    text = (DOCS / "contract.md").read_text(encoding="utf-8")
    assert re.search(rf"^## {section}\. \S", text, flags=re.M), \
        f"SPEC §{section} is cited in the code but docs/contract.md has no section {section}"


def test_readme_is_a_front_door():
    raw = README.read_bytes()
    assert len(raw) <= README_MAX_BYTES, f"README.md is {len(raw)} bytes"
    text = raw.decode("utf-8")
    assert text.startswith("# contrascan\n\n```bash\n" + FRONT_DOOR + "```\n")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^make test$", ci, flags=re.M)


@pytest.mark.parametrize("page", sorted([README, *DOCS.glob("*.md")], key=str),
                         ids=lambda p: p.name)
def test_relative_links_resolve(page):
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", text):
        assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


@pytest.mark.parametrize("page", sorted([README, *DOCS.glob("*.md")], key=str),
                         ids=lambda p: p.name)
def test_anchors_resolve(page):
    """``page.md#anchor`` links point at a heading of that page (GitHub's slug rules)."""
    text = page.read_text(encoding="utf-8")
    for target, anchor in re.findall(r"\]\(([^)#\s]*\.md)#([^)\s]+)\)", text):
        headings = (page.parent / target).read_text(encoding="utf-8")
        slugs = {_slug(h) for h in re.findall(r"^#+ (.+)$", headings, flags=re.M)}
        assert anchor in slugs, f"{page.name}: {target}#{anchor} names no heading"


def _slug(heading: str) -> str:
    heading = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return heading.replace(" ", "-")


def test_every_docs_page_is_reachable_from_the_readme():
    readme = README.read_text(encoding="utf-8")
    for page in DOCS.glob("*.md"):
        assert f"docs/{page.name}" in readme, f"docs/{page.name} is not linked from README.md"
