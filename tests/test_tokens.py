"""The one tokenizer: read whole (with offsets) and a word at a time, the same tokens."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from notationkit import PIECES

from sunlog.notation.tokens import located_tokens, tag_parts, unescape, word_tokens


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_words_read_as_the_whole_text_reads(text: str) -> None:
    """A word at a time, a text gives the tokens it gives read whole, each joined to the
    one before it alike; or ``None`` when white space the grammar does not take stands in
    it."""
    whole = list(located_tokens(text))
    words = word_tokens(text)
    if words is None:
        assert any(c.isspace() and c not in " \t\n\f\r" for c in text)
        return
    assert [t[:3] for t in words] == [t[:3] for t in whole]
    assert [t[1] for t in whole] == [text[t[3] : t[3] + len(t[1])] for t in whole]


def test_a_tags_parts_and_its_escapes() -> None:
    assert tag_parts('[Event "a \\"b\\" \\\\ c"]') == ("Event", 'a \\"b\\" \\\\ c')
    assert tag_parts('[ \tDeal\t "7" ]') == ("Deal", "7")
    assert unescape('a \\"b\\" \\\\ c') == 'a "b" \\ c'
    assert unescape("C:\\\\\\games") is None  # \\ then \g
    assert unescape("plain") == "plain"


def test_annotated_words_and_odd_spaces_read_as_whole() -> None:
    """An annotated word reads as its stem's tokens and its marks; a tag or comment may
    stand anywhere; odd white space in ASCII or beyond it gives ``None``."""
    text = '[Deal "1"]deal! r5:QD>K?! r5:QD>K!!! {a [b] ; c}?? K♠>K? ;x\n!? 12.KH>K!'
    whole = list(located_tokens(text))
    words = word_tokens(text)
    assert words is not None
    assert [t[:3] for t in words] == [t[:3] for t in whole]
    assert [t[1] for t in words][-3:] == ["12.", "KH>K", "!"]
    for odd in ("\x0b", "\x1f", "\u00a0", "\u3000"):
        assert word_tokens(f"deal{odd}deal K♠>K") is None
        assert word_tokens(f"deal{odd}deal") is None
