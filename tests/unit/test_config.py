"""Configuration files: every table overridable, bad fields named."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from extractors import Cardinality
from scanner.cli import main
from scanner.config import load_settings
from scanner.core.policy_config import Strategy
from scanner.errors import ConfigurationError

TOML = """
[relations]
functional = ["drink"]
multi_valued = ["name"]
safety = ["deploy window"]
[relations.synonyms]
squad = "team"
[relations.strategies]
"preferred color" = "confidence"
[aliases]
Bob = "Robert"
[epochs]
single_epoch = true
[[patterns]]
relation = "place of birth"
pattern = "[X] hails from [Y]."
"""


def test_toml_settings_build_the_scan_config(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(TOML)
    cfg = load_settings(path).scan_config()
    assert cfg.table.cardinality("drink") is Cardinality.functional
    assert cfg.table.cardinality("name") is Cardinality.multi_valued
    assert cfg.table.canonical("squad") == ("team", False)
    assert cfg.aliases.resolve("bob") == "robert"
    assert cfg.policy.single_epoch and cfg.policy.safety_relations == {"deploy window"}
    assert cfg.policy.strategies == {"preferred color": Strategy.confidence}
    assert cfg.extra_patterns == (("place of birth", "[X] hails from [Y]."),)


@pytest.mark.parametrize(("content", "field"), [
    ('[relations]\nfunctional = 3', "relations.functional"),
    ('[[patterns]]\nrelation = "x"\npattern = "no slots"', "patterns.0.pattern"),
    ('[relations.strategies]\nx = "coin-flip"', "relations.strategies.x"),
    ('[colours]\nx = 1', "colours"),
])
def test_bad_settings_name_the_field(tmp_path, content, field):
    path = tmp_path / "c.toml"
    path.write_text(content)
    with pytest.raises(ConfigurationError) as err:
        load_settings(path)
    assert field in str(err.value)


def test_config_reaches_scan_file(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text(TOML)
    data = tmp_path / "m.jsonl"
    rows = [dict(id="a", text="Bob hails from Lyon.", user_id="u", source="s",
                 source_class="user", observed_at="2026-01-01T00:00:00Z"),
            dict(id="b", text="Robert was born in Nice.", user_id="u", source="s",
                 source_class="user", observed_at="2026-01-02T00:00:00Z")]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    plain = CliRunner().invoke(main, ["scan-file", str(data), "--json"])
    assert json.loads(plain.stdout)["conflicts"] == []
    configured = CliRunner().invoke(main, ["--config", str(cfg), "scan-file", str(data),
                                           "--json"])
    (conflict,) = json.loads(configured.stdout)["conflicts"]
    # no epochs in the records: the file's single_epoch declaration lets recency decide
    assert (conflict["key"]["subject"], conflict["winner"]) == ("robert", "b")
    assert "declared:single_epoch" in conflict["reasons"]


def test_similarity_matches_only_ever_give_possible(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[relations]\nsimilarity = true\nsimilarity_threshold = 0.3\n")
    data = tmp_path / "m.jsonl"
    rows = [dict(id="a", text="Sam hails from Lyon.", user_id="u", source="s",
                 source_class="user", observed_at="2026-01-01T00:00:00Z", epoch="e"),
            dict(id="b", text="Sam was born in Nice.", user_id="u", source="s",
                 source_class="user", observed_at="2026-01-02T00:00:00Z", epoch="e")]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = CliRunner().invoke(main, ["--config", str(cfg), "scan-file", str(data), "--json"])
    conflicts = json.loads(out.stdout)["conflicts"]
    assert conflicts and all(c["verdict"] == "possible" for c in conflicts)
    assert conflicts[0]["rule"] == "relation_similarity"
