"""The classroom settings in .streamlit/config.toml agree with the core's limits."""

import tomllib
from pathlib import Path

from subtok_core.corpus import MAX_BYTES

CONFIG = tomllib.loads((Path(__file__).parents[1] / ".streamlit" / "config.toml").read_text())


def test_uploads_are_refused_at_the_size_the_core_refuses():
    assert CONFIG["server"]["maxUploadSize"] * 1024 * 1024 == MAX_BYTES


def test_no_developer_toolbar_no_tracebacks_no_usage_statistics():
    assert CONFIG["client"]["toolbarMode"] == "viewer"  # no Deploy / Rerun / Clear cache
    assert CONFIG["client"]["showErrorDetails"] == "none"
    assert CONFIG["browser"]["gatherUsageStats"] is False


def test_no_file_watcher_and_no_full_collection_after_every_run():
    # both cost a warm run most of its server CPU and a new session up to a second
    # (bench/load_ws.py); a developer turns the watcher back on by a flag of streamlit run
    assert CONFIG["server"]["fileWatcherType"] == "none"
    assert CONFIG["runner"]["postScriptGC"] is False
