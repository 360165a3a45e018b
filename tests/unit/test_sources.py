"""Source mappings: presets, TOML, and how one object becomes a memory record (issue 16)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from scanner.errors import ConfigurationError
from scanner.models import SourceClass
from scanner.sources import SourceRecordError, build_mapping, load_sources, preset
from scanner.sources.mapping import object_id


def test_mem0_preset_reads_mem0_payloads():
    m = preset("mem0", "Mem0Memories")
    r = m.to_record("0d34f3c6-3d80-4325-803c-7edca98fab2c", {
        "data": "The preferred glaze is celadon.", "user_id": "u1", "role": "user",
        "actor_id": "potter", "created_at": "2026-03-01T10:00:00+00:00",
        "updated_at": "2026-03-09T10:00:00+00:00"})
    assert (r.text, r.user_id, r.source, r.source_class) == (
        "The preferred glaze is celadon.", "u1", "potter", SourceClass.user)
    # created_at is Mem0's write time: observed_at only as the preset declares it (updated_at
    # never), and that declaration is stated with the others the preset makes
    assert r.observed_at == datetime(2026, 3, 1, 10, tzinfo=timezone.utc)
    assert m.declarations() == ("declared:observed_at=created_at",
                                "declared:source=Mem0Memories")
    assert m.single_epoch
    strict = preset("mem0", "Mem0Memories", store_time_as_observed_at="", source_default="",
                    single_epoch=False)
    assert strict.declarations() == () and not strict.single_epoch
    assert strict.to_record("x", {"data": "t", "user_id": "u1",
                                  "created_at": "2026-03-01T10:00:00+00:00"}).observed_at is None
    assert preset("mem0", "M").to_record("x", {"data": "t", "user_id": "u", "role": "assistant"}
                                         ).source_class is SourceClass.inference


@pytest.mark.parametrize("properties, source", [
    ({"actor_id": "potter", "run_id": "session-4"}, "potter"),  # who said it
    ({"run_id": "session-4"}, "session-4"),  # the conversation (SPEC §1)
    ({}, "Mem0Memories"),  # nothing: the collection, as declared
])
def test_mem0_source_is_the_actor_then_the_run_then_the_declared_collection(properties,
                                                                              source):
    r = preset("mem0", "Mem0Memories").to_record("x", {"data": "t", "user_id": "u1",
                                                       **properties})
    assert r.source == source


@pytest.mark.parametrize("name", ["langchain", "llamaindex", "mem0"])
def test_every_preset_declares_one_epoch_and_the_collection_as_source(name):
    # frameworks carry no epoch and often no source (issue 35 item 3): the preset declares
    # them, so a plain framework write is not quarantined as missing provenance
    m = preset(name, "Notes")
    assert m.single_epoch and m.source_default == "Notes"
    assert "declared:source=Notes" in m.declarations()
    text = "data" if name == "mem0" else "text"
    r = m.to_record("x", {text: "t", "user_id": "u", "source": "chat:1"})
    assert (r.source, r.epoch) == ("chat:1", None)  # a stated source wins over the declared
    tables = build_mapping({"preset": name, "collection": "Notes", "source_default": "app"})
    assert tables.source_default == "app"


@pytest.mark.parametrize("field, name", [("observed_at_properties", ["updated_at"]),
                                         ("store_time_as_observed_at", "updated_at"),
                                         ("observed_at_properties", ["created_at"])])
def test_write_times_are_not_observation_times(field, name):
    with pytest.raises(ConfigurationError, match=field):
        build_mapping({"collection": "C", field: name})


def test_bad_objects_name_the_object_and_field():
    m = preset("langchain", "C")
    records, rejected = m.records([
        ("a", {"text": "Alice lives in Paris.", "user_id": "u"}, None),
        ("b", {"text": "  ", "user_id": "u"}, None),
        ("c", {"text": "x", "user_id": "u", "observed_at": "2026-03-01T10:00:00"}, None),
        ("d", {"text": "x"}, None),
        ("e", {"text": "x", "user_id": "u", "source_class": "oracle"}, None),
    ])
    assert [r.id for r in records] == ["a"]
    assert [(r.line, r.id, r.field) for r in rejected] == [
        (2, "b", "text"), (3, "c", "observed_at"), (4, "d", "user_id"), (5, "e", "source_class")]
    assert "naive" in rejected[1].reason
    with pytest.raises(SourceRecordError, match="object d: user_id"):
        m.to_record("d", {"text": "x"})


def test_tenant_scope_takes_the_user_from_the_tenant():
    m = build_mapping({"collection": "C", "tenant_scope": True, "user_property": None})
    assert m.to_record("a", {"text": "t"}, tenant="alice").user_id == "alice"
    with pytest.raises(ConfigurationError):
        build_mapping({"collection": "C", "tenant_scope": False, "user_property": None})


def test_toml_sources(tmp_path):
    path = tmp_path / "sources.toml"
    path.write_text('[sources.support-bot]\npreset = "mem0"\ncollection = "Mem0Memories"\n'
                    'store_time_as_observed_at = "created_at"\nsingle_epoch = true\n\n'
                    '[sources.notes]\ncollection = "Notes"\ntext_property = "body"\n'
                    'scope_properties = ["project"]\nsource_default = "notes-app"\n')
    sources = load_sources(path)
    assert sorted(sources) == ["notes", "support-bot"]
    assert sources["support-bot"].text_property == "data" and sources["support-bot"].single_epoch
    notes = sources["notes"]
    r = notes.to_record("n1", {"body": "The kiln fires to cone 10.", "user_id": "u",
                               "project": "kiln"})
    assert (r.source, r.properties) == ("notes-app", {"project": "kiln"})
    assert notes.declarations() == ("declared:source=notes-app",)
    bad = tmp_path / "bad.toml"
    bad.write_text('[sources.x]\ncollection = "C"\nno_such_field = 1\n')
    with pytest.raises(ConfigurationError, match="sources.x"):
        load_sources(bad)


def test_object_id_is_stable_and_content_addressed():
    assert object_id("a", {"k": 1}) == object_id("a", {"k": 1}) != object_id("b", {"k": 1})


def test_cli_names_the_missing_source_in_one_line(tmp_path):
    from click.testing import CliRunner

    from scanner.cli import main

    runner = CliRunner()
    result = runner.invoke(main, ["source", "scan", "--user", "u", "--query", "q"])
    assert result.exit_code == 1
    assert "give --sources FILE or --preset" in result.output
    path = tmp_path / "s.toml"
    path.write_text('[sources.a]\ncollection = "A"\n')
    result = runner.invoke(main, ["source", "scan-hits", "--sources", str(path), "--source", "b",
                                  "--user", "u", "x"])
    assert result.exit_code == 1 and "'b' is not in" in result.output


def test_the_cli_declares_a_presets_source_and_says_so_in_every_verdict():
    # frameworks write no source; the person attaching the collection declares it (issue 35)
    import scanner.cli  # noqa: F401  (the command group, which the sources' commands join)
    from scanner.errors import ConfigurationError
    from scanner.sources.cli import _mapping

    m = _mapping(None, None, "langchain", "Notes", None, False, "notes-app")
    assert m.source_default == "notes-app"
    assert "declared:source=notes-app" in m.declarations()
    # by default the preset declares the collection; '' declares nothing
    assert _mapping(None, None, "langchain", "Notes", None, False).source_default == "Notes"
    assert _mapping(None, None, "langchain", "Notes", None, False, "").source_default is None
    # options not given leave the preset's declarations as they are
    mem0 = _mapping(None, None, "mem0", "M", None, False)
    assert (mem0.store_time_as_observed_at, mem0.single_epoch) == ("created_at", True)
    assert _mapping(None, None, "mem0", "M", "", False).store_time_as_observed_at is None
    with pytest.raises(ConfigurationError) as err:
        _mapping(None, None, None, None, None, False, "notes-app")
    assert err.value.setting == "--declare-source"


@pytest.mark.parametrize(("value", "says"), [
    ("   ", "the source is empty"),
    ("s" * 1025, "the source is 1,025 characters long; a source holds at most 1,024"),
])
@pytest.mark.parametrize("command", [["scan", "--query", "q"], ["scan-hits", "some-uuid"],
                                     ["batch-scan"]])
def test_the_cli_refuses_a_declared_source_a_record_could_not_hold_before_connecting(
        command, value, says):
    from click.testing import CliRunner

    from scanner.cli import main

    user = ["--user", "u"] if command[0] != "batch-scan" else []
    # a server that cannot answer: reaching it would end in another error
    result = CliRunner().invoke(main, ["source", *command, *user, "--preset", "langchain",
                                       "--collection", "Notes", "--declare-source", value,
                                       "--weaviate-url", "http://127.0.0.1:9"])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--declare-source'" in result.output and says in result.output
    assert "Weaviate" not in result.output and "Traceback" not in result.output


def test_a_declared_source_of_a_records_longest_is_kept_and_a_blank_default_refused():
    import scanner.cli  # noqa: F401  (the command group, which the sources' commands join)
    from scanner.models import MAX_SOURCE_CHARS
    from scanner.sources.cli import _mapping

    longest = "s" * MAX_SOURCE_CHARS
    mapping = _mapping(None, None, "langchain", "Notes", None, False, longest)
    record = mapping.to_record("n1", {"text": "The kiln fires to cone 10.", "user_id": "u"})
    assert record.source == longest
    # the same limits hold for a source declared in a --sources table ("" declares none)
    assert build_mapping({"collection": "Notes", "source_default": ""}).source_default is None
    for bad in (" ", longest + "s"):
        with pytest.raises(ConfigurationError, match="source.source_default"):
            build_mapping({"collection": "Notes", "source_default": bad})


@pytest.mark.parametrize(("results", "says"), [
    ({"memories": []}, "results: expected what Memory.search returns"),
    ({"results": {"id": "a"}}, "results: expected what Memory.search returns"),
    ({"results": [{"id": "a"}, {"memory": "no id"}]}, r"results\[1\]: no 'id'"),
    ([{"id": ""}], r"results\[0\]: no 'id'"),
])
def test_a_mem0_result_of_another_shape_is_refused_naming_what_is_wrong(results, says):
    from scanner.integrations.mem0 import scan_mem0_results

    # refused before anything is read: no source is needed to tell
    with pytest.raises(ValueError, match=says):
        scan_mem0_results(None, "u", results)


def test_a_report_states_what_its_source_declares():
    # issue 35 item 3: the preset's assumptions are in every report, in JSON and in words
    from rich.console import Console

    from scanner.models import ScanReport
    from scanner.render import declared_lines, render_report

    declared = ["declared:single_epoch", "declared:observed_at=created_at",
                "declared:source=Notes"]
    report = ScanReport(scanned=2, cite=["a", "b"], declared=declared)
    assert report.to_json_dict()["declared"] == declared
    assert "declared" not in ScanReport(scanned=1).to_json_dict()  # others' reports unchanged
    console = Console(record=True, width=200)
    render_report(report, console=console)
    assert console.export_text().splitlines()[1:] == [
        "assumed (declared:single_epoch): every memory without an epoch is taken to be in "
        "one epoch",
        "assumed (declared:observed_at=created_at): a memory without an observation time is "
        "taken to be observed when its created_at says",
        "assumed (declared:source=Notes): a memory that names no source is taken to come from "
        "Notes"]
    assert declared_lines(["declared:something_else"]) == ["assumed (declared:something_else)"]
