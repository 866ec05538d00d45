"""Tests for labcode.corpus: the frozen vocabulary matches the corpus, encode/decode, batches."""
import numpy as np
import pytest

from labcode import BOS, EOS, IGNORE, UNK, Vocab, collate, corpus
from labcode.vocab import SPECIALS


def test_frozen_vocabulary_is_rebuilt_exactly_from_the_corpus():
    # Editing the corpus without regenerating labcode/data/zh_vocab.txt (or the reverse) fails here.
    assert corpus.vocab() == Vocab.from_texts(corpus.sentences(), SPECIALS, unknown="<UNK>")


def test_special_ids_come_first():
    vocab = corpus.vocab()
    assert (vocab["<UNK>"], vocab["<BOS>"], vocab["<EOS>"]) == (UNK, BOS, EOS) == (0, 1, 2)
    assert vocab.specials == SPECIALS and vocab.unknown == "<UNK>"


def test_corpus_size_and_repeated_characters():
    sentences = corpus.sentences()
    assert 180 <= len(sentences) <= 260
    assert len(set(sentences)) == len(sentences), "every sentence once"
    for phrase in ("谢谢", "天天向上", "我爱我家"):
        assert any(phrase in s for s in sentences)
    assert all(0 < len(s) <= 20 for s in sentences)


def test_every_sentence_round_trips():
    for s in corpus.sentences():
        ids = corpus.encode(s)
        assert ids.dtype == np.int64 and ids.shape == (len(s),)
        assert UNK not in ids and BOS not in ids and EOS not in ids
        assert corpus.decode(ids) == s


def test_repeated_characters_get_the_same_id():
    ids = corpus.encode("谢谢")
    assert ids[0] == ids[1]
    ids = corpus.encode("我爱我家")
    assert ids[0] == ids[2] and len(set(ids.tolist())) == 3


def test_unknown_characters_become_unk():
    ids = corpus.encode("谢谢您㐀")
    assert ids[2:].tolist() == [UNK, UNK]
    assert corpus.decode(ids) == "谢谢<UNK><UNK>"
    assert corpus.encode("").shape == (0,)


def test_documents_and_batches_go_through_collate():
    doc = corpus.document("你好")
    assert doc.tolist() == [BOS, *corpus.encode("你好").tolist(), EOS]
    inputs, targets = corpus.make_batch(["谢谢", "我爱我家"])
    expected = collate([corpus.document("谢谢"), corpus.document("我爱我家")])
    np.testing.assert_array_equal(inputs, expected[0])
    np.testing.assert_array_equal(targets, expected[1])
    assert inputs.shape == (2, 5) and targets[0, -2:].tolist() == [IGNORE, IGNORE]
    assert corpus.decode(inputs[1]) == "<BOS>我爱我家"


def test_bad_inputs():
    with pytest.raises(TypeError, match=r"text 必须是字符串（str），收到 \['谢'\]（list）"):
        corpus.encode(["谢"])
    with pytest.raises(ValueError, match=r"ids 含忽略值 -100"):
        corpus.decode([5, -100])
    with pytest.raises(IndexError, match=r"ids 的每个编号都必须 < \d+"):
        corpus.decode([len(corpus.vocab())])
    with pytest.raises(ValueError, match=r"ids 必须是一维的（一次解码一篇的编号序列），收到形状 \(1, 2\)"):
        corpus.decode([[3, 4]])
    with pytest.raises(TypeError, match=r"texts 必须是由句子组成的列表，收到单个字符串 '谢谢'"):
        corpus.make_batch("谢谢")


def test_the_data_readme_documents_the_corpus_files_as_they_are():
    """labcode/data/README.md names each Chinese data file by its sha256 and says where it comes from."""
    import hashlib
    from importlib.resources import files

    data = files("labcode") / "data"
    readme = (data / "README.md").read_text(encoding="utf-8")
    for name in ("zh_corpus.txt", "zh_vocab.txt"):
        digest = hashlib.sha256((data / name).read_bytes()).hexdigest()
        section = readme[readme.index(f"## {name}"):]
        section = section[:section.index("\n## ", 3)]
        assert digest in section, name
        assert "来源" in section and "许可" in section, name
    assert f"{len(corpus.sentences())} 句" in readme and f"{len(corpus.vocab())} 行" in readme
