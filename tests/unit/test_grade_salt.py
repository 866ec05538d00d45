"""labcode.grade.salt: one salt rule and one keyed hash for the grader's seeds and the worksheets' variants."""
from __future__ import annotations

import pytest

from labcode.grade import __main__ as cli
from labcode.grade.batch import seed_for
from labcode.grade.salt import MIN_SALT, check_salt, keyed


def test_a_short_salt_is_refused_and_an_empty_one_only_where_it_is_optional():
    with pytest.raises(ValueError, match=f"至少要 {MIN_SALT} 个字符，收到 3 个"):
        check_salt("abc", optional=True)
    with pytest.raises(ValueError, match="收到 0 个"):
        check_salt("")
    assert check_salt("", optional=True) == "" and check_salt("course-2027") == "course-2027"
    with pytest.raises(TypeError, match="课程的盐必须是字符串（str），收到 bytes"):
        check_salt(b"course-2027")


def test_seeds_depend_on_the_salt_the_student_and_the_function():
    seeds = {seed_for(salt, student, f) for salt in ("course-2027", "course-2028") for student in ("S1", "S2")
             for f in ("my_softmax", "my_grad")}
    assert len(seeds) == 8 and all(0 <= s < 2**63 for s in seeds)
    assert keyed("course-2027", "S1", 0) == keyed("course-2027", "S1", "0") != keyed("course-2027", "S10")


def test_the_grader_refuses_a_short_salt_and_warns_without_one(tmp_path, capsys):
    with pytest.raises(SystemExit):
        cli.main([str(tmp_path), "--out", str(tmp_path / "out"), "--salt", "abc"])
    assert "至少要 8 个字符" in capsys.readouterr().err
    cli.main([str(tmp_path), "--out", str(tmp_path / "out"), "--salt", ""])
    assert "没有给课程的盐" in capsys.readouterr().err
