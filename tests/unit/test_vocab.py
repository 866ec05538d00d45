"""labcode.vocab: one vocabulary type for the corpus, the names and the idioms, with the book's three conventions."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from labcode import bigram, corpus, idioms
from labcode.vocab import BOS, BOUNDARY, EOS, SPECIALS, UNK, UNKNOWN, Vocab, check_vocab


def test_a_vocab_is_a_read_only_mapping_from_symbols_to_ids():
    v = Vocab((".",), "ab")
    assert v["b"] == 2 and list(v) == [".", "a", "b"] and len(v) == 3 and v.symbols[1] == "a"
    assert dict(v.items()) == {".": 0, "a": 1, "b": 2} and v == {".": 0, "a": 1, "b": 2}
    assert repr(v) == "Vocab({'.': 0, 'a': 1, 'b': 2})"
    with pytest.raises(TypeError):
        v["c"] = 3
    assert v != Vocab((".", "a"), "b")   # the same ids, but "a" is a special there: it encodes differently


def test_the_three_conventions_of_the_book():
    assert corpus.vocab().specials == SPECIALS and [corpus.vocab()[s] for s in SPECIALS] == [UNK, BOS, EOS]
    assert bigram.build_vocab(["ab"]).specials == (BOUNDARY,) and bigram.build_vocab(["ab"])[BOUNDARY] == 0
    capped = idioms.capped_vocab(["ab"], 3)
    assert capped.specials == (BOUNDARY, UNKNOWN) and capped[UNKNOWN] == 1 and capped.unknown == UNKNOWN


def test_unknown_characters_become_the_unknown_symbol_or_an_error():
    assert corpus.vocab().encode("谢㐀").tolist()[1] == UNK
    with pytest.raises(ValueError, match=r"^text 的每个字都必须是词表里的字（2 个：'ab'；特殊记号 \['\.'\] "
                                         r"不是文本里的字），收到 'abc'，含表外的字 \['c'\]$"):
        Vocab((".",), "ab").encode("abc")


def test_a_special_in_the_text_is_not_read_as_the_special():
    with pytest.raises(ValueError, match=r"含表外的字 \['\.'\]"):
        Vocab((".",), "ab").encode("a.b")
    assert Vocab((".", "□"), "ab", unknown="□").encode("a.").tolist() == [2, 1]


@given(st.text(alphabet="abc", max_size=20))
def test_decode_inverts_encode(text):
    v = Vocab.from_texts(["abc"], (BOUNDARY,))
    assert v.decode(v.encode(text)) == text and v.decode([0, *v.encode(text), 0]) == f".{text}."


@pytest.mark.parametrize("make, error, message", [
    (lambda: Vocab((), "ab"), ValueError, r"^specials 必须是至少一个非空字符串"),
    (lambda: Vocab((".",), ["ab"]), ValueError, r"^chars 的每一项都必须是一个字（长度为 1 的字符串），收到 \['ab'\]"),
    (lambda: Vocab((".",), "a.a"), ValueError, r"^specials 与 chars 的符号必须互不相同，\['\.', 'a'\] 出现了不止一次"),
    (lambda: Vocab((".",), "ab", unknown="a"), ValueError, r"^unknown 必须是特殊记号之一"),
    (lambda: Vocab((".",), "ab").encode(3), TypeError, r"^text 必须是字符串（str），收到 3（int）"),
    (lambda: Vocab((".",), "ab").decode([[0]]), ValueError, r"^ids 必须是一维的（一次解码一篇的编号序列）"),
    (lambda: Vocab((".",), "ab").decode([3]), IndexError, r"^ids 的每个编号都必须 < 3"),
    (lambda: check_vocab({".": 0}), TypeError, r"^vocab 必须是 Vocab，收到"),
    (lambda: check_vocab(corpus.vocab(), first=BOUNDARY), TypeError, r"^vocab 必须是编号 0 是 '\.' 的 Vocab"),
    (lambda: check_vocab(Vocab((".",), "a"), size=3, of="W"), ValueError, r"^vocab 的大小必须等于 W 的行数 3，收到 2"),
])
def test_errors_name_the_argument(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_encoding_is_an_int64_array_without_specials():
    ids = bigram.build_vocab(["ab"]).encode("ba")
    assert ids.dtype == np.int64 and ids.tolist() == [2, 1]
