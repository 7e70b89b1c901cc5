"""The data folder (the class poll's SQLite file) is trusted as far as the cache folder:
a folder others may write to is made private with a log line, one of another user is
refused, a planted link in place of the database file is refused with a sentence and
never followed, and the file is created readable by its owner only."""

from __future__ import annotations

import logging
import os
import stat

import pytest

from subtok_core.rooms import db


def url_in(folder) -> str:
    return f"sqlite:///{folder / db.DB_FILE}"


def test_a_data_folder_writable_by_others_is_made_private_with_a_log_line(tmp_path, caplog):
    data = tmp_path / "data"
    data.mkdir()
    os.chmod(data, 0o777)
    with caplog.at_level(logging.INFO, logger="subtok_core"):
        db.new_engine(url_in(data)).dispose()
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert "was writable by others; made private (mode 0700)" in caplog.text


@pytest.mark.parametrize("content", [b"", b"the victim's own words\n"])
def test_a_linked_database_file_is_refused_and_its_target_untouched(tmp_path, content):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(content)
    os.chmod(victim, 0o644)
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (data / db.DB_FILE).symlink_to(victim)
    with pytest.raises(ValueError, match="is a link"):
        db.new_engine(url_in(data))
    assert stat.S_IMODE(victim.stat().st_mode) == 0o644
    assert victim.read_bytes() == content


def test_a_linked_write_ahead_log_is_refused_too(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"keep")
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (data / f"{db.DB_FILE}-wal").symlink_to(victim)
    with pytest.raises(ValueError, match="is a link"):
        db.new_engine(url_in(data))
    assert victim.read_bytes() == b"keep"


def test_the_database_file_is_created_for_its_owner_only(tmp_path):
    data = tmp_path / "new" / "data"
    db.new_engine(url_in(data)).dispose()
    assert stat.S_IMODE((data / db.DB_FILE).stat().st_mode) == 0o600
    assert stat.S_IMODE(data.stat().st_mode) == 0o700


def test_a_data_folder_of_another_user_is_refused_with_a_sentence(tmp_path):
    if os.getuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    data = tmp_path / "theirs"
    data.mkdir(mode=0o700)
    os.chown(data, 12345, 12345)
    with pytest.raises(ValueError, match="belongs to another user"):
        db.new_engine(url_in(data))
    assert list(data.iterdir()) == []
