"""What class and id names, tags and roles say about a block: boilerplate (navigation,
share bars, comments, consent managers), content (article, body, post), or nothing.

A token is judged once per page (cached): its boilerplate stems match inside longer
names, its short words only whole, and words that name content beside a boilerplate
word outweigh it. The word lists are in wf/extract/tuning.py. What a box holds, read where
its names alone would mislead, is names_held.py's.
"""

from __future__ import annotations

import re
from typing import Any

from wf.extract import names_tuning, tuning
from wf.extract.anchors import code_name, links_itself, notes, permalinked
from wf.extract.name_tokens import tokens
from wf.extract.names_held import attribution, issue, language_menu, pager_sized
from wf.extract.verdicts import CaseBlind, keep

HEADING = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))

# fmt: off
BLOCK = frozenset((
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd",
    "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html",
    "legend", "li", "main", "menu", "nav", "noscript", "ol", "p", "pre", "section",
    "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
))
# fmt: on
# Navigation, asides, page footers, and figures (their captions describe a picture, not
# the story) are boilerplate unless they hold most of the page's prose.
STRUCTURAL_NEGATIVE = frozenset(("nav", "aside", "footer", "figure", "figcaption"))
_FRAMED = ("table", "pre", "blockquote", "code")
# Never boilerplate by their class names: they hold the page or say they are its content.
NEVER_NEGATIVE = frozenset(("html", "body", "main"))


def _by_first_letter(alternatives: tuple[str, ...]) -> str:
    """The alternatives as one alternation grouped by their first letter, each group in
    the order given: the regex engine rejects a whole group on one letter, so a class
    token is searched in about half the time, with the same matches (the same leftmost
    alternative wins, since two can only tie where they share a first letter)."""
    groups: dict[str, list[str]] = {}
    for alternative in alternatives:
        groups.setdefault(alternative[0], []).append(alternative[1:])
    return "|".join(f"{re.escape(first)}(?:{'|'.join(rests)})" for first, rests in groups.items())


# The stems match anywhere; the words only whole, after every stem has been tried.
_NEGATIVE = re.compile(
    f"{_by_first_letter(tuning.NEGATIVE_STEMS)}"
    f"|(?<![a-z])(?:{_by_first_letter(tuning.NEGATIVE_WORDS)})(?![a-z])"
)
# Words that say "this is the content". A class token made of them alone outweighs a
# boilerplate token beside it (`article-body pagination-first`, `main has-sidebar`);
# a token that mixes both (`article-footer`, `comment-content`) stays boilerplate.
POSITIVE = re.compile(r"(?<![a-z])(?:article|body|content|main|post|entry|story|text)(?![a-z])")
# Both kinds of word in one search: a token with neither (col-md-6, wrapper) is 0.
_WORDS = re.compile(f"{_NEGATIVE.pattern}|{POSITIVE.pattern}")
# Comments: a token that names one outweighs content names beside it.
_STRONG = re.compile(r"comment(?!ary)|coment|komment|disqus")
# Where a lower-case letter meets a capital: a hyphen put there splits camelCase as
# `([a-z])([A-Z])` -> `\1-\2` did (no pair overlaps the next: a lower-case letter is no
# capital), with a plain string for the replacement, which needs no template expanded.
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_MODIFIERS = ("has-", "with-", "no-", "without-", "is-")
_INNER_MODIFIERS = tuple("-" + m for m in _MODIFIERS)


def _modified(prefix: str) -> bool:
    """Whether a class word comes after has-, no-, with-...: "has-sidebar" says what a
    block holds, not what it is, and so does Docusaurus's `anchorWithStickyNavbar` on
    every heading (the modifier a word or more before the boilerplate word)."""
    # Each modifier holds a hyphen: a prefix without one (camelCase) is not searched.
    return "-" in prefix and (
        prefix.startswith(_MODIFIERS) or any(m in prefix for m in _INNER_MODIFIERS)
    )


# Boilerplate that can outweigh a short article but never wraps one: reader comments and
# recommendations. A page is never read as if these held its content.
_NEVER_CONTENT = CaseBlind(tuning.NEVER_CONTENT)
# ARIA roles of a box drawn over the page: a consent, sign-in or newsletter dialog.
_DIALOG_ROLES = frozenset(("dialog", "alertdialog"))


# Per class or id token: pages repeat tokens (col-md-6, wrapper, clearfix) far more than
# whole class values, and each new token costs three regexes.
_token_cache: dict[str, int] = {}
_KEPT = 20000  # entries of each of these caches (keep())
_NEG, _STRONG_NEG, _POS, _TEASER, _PICTURE, _PAGER, _PLAIN = 1, 2, 4, 8, 16, 32, 64
_WEAK = _TEASER | _PICTURE | _PAGER
_NAMED, _NAMED_TEASER, _NAMED_PICTURE, _NAMED_PAGER = 1, 2, 3, 4
_WEAK_NAMED = {_TEASER: _NAMED_TEASER, _PICTURE: _NAMED_PICTURE, _PAGER: _NAMED_PAGER}
# "Teaser" names a box that teases another page, and on many news sites the article's own
# lead paragraph (`article-teaser`, `teaser-text`): the box is boilerplate only when it
# links somewhere.
_TEASER_WORDS = frozenset(("teaser", "teasers"))
# A picture's box is boilerplate (its caption describes the picture, not the story), but
# a token that names text beside the picture (text-image, img-text) names a CMS's block of
# text with a picture: boilerplate only when it holds no paragraph (a caption of that name).
_IMAGE_WORDS = frozenset(("image", "img", "photo", "photos", "picture"))
_TEXT_WORD = re.compile(r"(?<![a-z])text(?![a-z])")
# A pager is a row of page numbers; shops and search pages name the box that holds the
# results of the page *and* its pager after the pagination (`pagination-container` around
# a product grid): such a box is boilerplate only when it holds no more text than a pager.
_PAGER_WORDS = frozenset(("pagination", "pager"))


# A content system's publication state on an entry's own box (Drupal's `node-promoted`,
# `node-sticky`, WordPress's `status-publish`): what state the entry is in, not what the
# box is. Read as boilerplate, "promoted" would make the article a promotion.
_STATE = re.compile(
    r"(?:node|status)--?(?:promoted|sticky|not-sticky|published|unpublished|not-published|"
    r"publish|draft|future|pending|private)"
)


# A class that CSS-in-JS generates from a hash of the styles (Emotion's `css-1d8ad8q`,
# styled-jsx's `jsx-2331785419`, Svelte's `svelte-1xk3mh9`): its letters are random, and
# one between two digits reads as a word (`ad`, an advertisement).
_HASHED = re.compile(r"(?:css|jsx|svelte)-(?=[a-z]*[0-9])[a-z0-9]{5,12}")


# A documentation note's box: Sphinx names it after its title (`admonition-dates`,
# `admonition-you-can-t-share-pickles`), whose words say nothing of the box's role.
_ADMONITION = "admonition"
# The documentation comment of an API's item, no reader's comment (names_tuning).
_DOC_COMMENT = re.compile(names_tuning.DOC_COMMENT)
# A code block's live example, named after its section (names_tuning).
_LIVE_SAMPLE = re.compile(names_tuning.LIVE_SAMPLE)


def _spared(low: str) -> bool:
    """Whether a lowered token that holds a never-content word names something else: a
    post's state (node--sticky), an API's documentation comment (tsd-comment), the live
    example a code block feeds (MDN's live-sample---sticky_footer)."""
    return (
        _STATE.fullmatch(low) is not None
        or _DOC_COMMENT.fullmatch(low) is not None
        or _LIVE_SAMPLE.fullmatch(low) is not None
    )


def lowered(token: str) -> str:
    """camelCase and snake_case with the same word boundaries as kebab-case; a utility
    class's variants (Tailwind's `print:`, `md:`, `hover:`) taken off."""
    low = token if token.islower() else _CAMEL.sub("-", token).lower()
    if ":" in low:
        low = _utility(low)
    return low.replace("_", "-") if "_" in low else low


# Utilities that hide a box: under a variant they keep it in the name ("print:hidden",
# a box left out of the printed page, is the page's chrome).
_HIDING = frozenset(("hidden", "d-none", "invisible"))


def _utility(low: str) -> str:
    """A utility class without its variants, which say when it applies, not what the box
    is: GitBook writes `print:break-inside-avoid` on each paragraph, and "print" named a
    print button."""
    rest = low.rpartition(":")[2]
    return low if rest in _HIDING else rest


def named_by(el: Any, pattern: re.Pattern[str]) -> bool:
    """Whether a class or id token of `el`, read as lowered() reads it, matches `pattern`."""
    names = f"{el.get('class') or ''} {el.get('id') or ''}"
    return any(pattern.search(lowered(token)) for token in tokens(names))


def _aem(low: str, hit: str) -> bool:
    """Whether a token's leading "cmp" is Adobe Experience Manager's prefix of its core
    components (`cmp-text`, `cmp-teaser__description`), not a consent manager (CMP): the
    component's name follows it; the rest of the token is judged as any other."""
    return hit == tuning.AEM_PREFIX and low.startswith(tuning.AEM_PREFIX + "-")


def _words(low: str) -> list[str]:
    """The boilerplate words of a lowered token, but those after a modifier (has-sidebar,
    card-no-image: what a block holds, not what it is) or AEM's prefix."""
    found = []
    for m in _NEGATIVE.finditer(low):
        start = m.start()
        if start and _modified(low[:start]):  # (no modifier before the token's start)
            continue
        word = m.group()
        if start or not _aem(low, word):
            found.append(word)
    return found


def _token_kind(token: str) -> int:
    """A class or id token's verdict: _NEG (with _STRONG_NEG for a comment's content box,
    _TEASER or _PICTURE when only such words name it) or _POS or 0."""
    low = lowered(token)
    # A token with neither a boilerplate word (but a modified one) nor a content word is 0
    # whatever the names of something else below say (each of them answers 0 too): most
    # tokens are told so without them.
    if _WORDS.search(low) is None:
        return 0
    hits = _words(low)
    if not hits and POSITIVE.search(low) is None:
        return 0
    if _ELSEWHERE.fullmatch(low) or low.startswith(_ADMONITION):
        return 0
    if "embed" in low:
        return 0  # an embedded post (social-media-embed) is quoted content
    if hits:
        # _PLAIN: a word that is no issue word, which _hits() of the names then holds.
        neg = _NEG if names_tuning.ISSUE_WORDS.issuperset(hits) else _NEG | _PLAIN
        if _STRONG.search(low) and POSITIVE.search(low):
            # comment-text, comment-body: a reader's comment, whatever else the block
            # is called.
            return neg | _STRONG_NEG
        if all(hit in _IMAGE_WORDS for hit in hits) and _TEXT_WORD.search(low):
            return neg | _PICTURE
        if all(hit in _PAGER_WORDS for hit in hits):
            return neg | _PAGER
        return neg | _TEASER if all(hit in _TEASER_WORDS for hit in hits) else neg
    return _POS if POSITIVE.search(low) else 0


# Tailwind's utilities that style a box's text or display it as a table's caption (maybe
# under a prefix such as Nextra's `nx-`) say nothing of what it is: "text" in them
# outweighed the names beside them (`nextra-breadcrumb nx-text-sm`, `share-bar text-xs`).
_UTILITY = re.compile(names_tuning.UTILITY)
# _spared(), _HASHED and _UTILITY as one pattern: an alternation matches the whole token
# exactly when one of its alternatives does, so one search answers what five did.
_ELSEWHERE = re.compile(
    "|".join(f"(?:{p.pattern})" for p in (_STATE, _DOC_COMMENT, _LIVE_SAMPLE, _HASHED, _UTILITY))
)


def _kind_of(token: str) -> int:
    """_token_kind, cached per token."""
    kind = _token_cache.get(token)
    if kind is None:
        kind = keep(_token_cache, token, _token_kind(token), _KEPT)
    return kind


def _negative_kind(words: str) -> int:
    """0, _NAMED (boilerplate), or _NAMED_TEASER, _NAMED_PICTURE or _NAMED_PAGER (only by
    a word that also names content, see above) for class and id tokens. negative_block()
    keeps its verdicts by value (_pair_cache); each token's is kept (_token_cache)."""
    return _named(*_fold(words))


def _fold(words: str) -> tuple[int, bool]:
    """The tokens' verdicts together, and whether one names boilerplate by more than a
    word that names content (two values fold as the two joined by a space)."""
    kinds = 0
    strong = False
    for token in tokens(words):
        kind = _kind_of(token)
        kinds |= kind
        if kind & _NEG and not kind & _WEAK:
            strong = True
    return kinds, strong


def _named(kinds: int, strong: bool) -> int:
    """_negative_kind() of tokens folded to `kinds` and `strong` (_fold)."""
    if not (kinds & _NEG and (kinds & _STRONG_NEG or not kinds & _POS)):
        return 0
    # Two weak words of different kinds name boilerplate as one strong word does.
    weak = _WEAK_NAMED.get(kinds & _WEAK)
    return _NAMED if strong or weak is None else weak


# Per (class, id) pair of values, what negative_block() reads in them (_pair): the kind
# of both (_negative_kind of them joined), _WITHOUT bits up the class's kind alone, and
# _PLAIN when one of their boilerplate words is no issue word. A block asks once per
# pair, not twice (with and without its id) and then for its words.
_pair_cache: dict[tuple[str | None, str | None], int] = {}
_KIND, _WITHOUT = 7, 3


def _pair(cls: str | None, ident: str | None) -> int:
    """The verdict of a class and an id value, packed as _pair_cache holds it (without an
    id, the class's kind alone is the kind; a token's _PLAIN is the names')."""
    c_kinds, c_strong = _fold(cls) if cls else (0, False)
    i_kinds, i_strong = _fold(ident) if ident else (0, False)
    kind = _named(c_kinds | i_kinds, c_strong or i_strong)
    without = _named(c_kinds, c_strong)
    plain = (c_kinds | i_kinds) & _PLAIN if kind or without else 0
    return kind | without << _WITHOUT | plain


_hits_cache: dict[str, frozenset[str]] = {}


def negative_hits(el: Any) -> frozenset[str]:
    """The boilerplate words (tuning.NEGATIVE_STEMS and NEGATIVE_WORDS, as matched) in an
    element's class and id tokens, those that a content word in their own token does not
    outweigh aside (cached per class and id value)."""
    return _hits(f"{el.get('class') or ''} {el.get('id') or ''}")


def _hits(names: str) -> frozenset[str]:
    """negative_hits() of class and id values joined by a space."""
    hit = _hits_cache.get(names)
    if hit is None:
        found: set[str] = set()
        for token in tokens(names):
            if _kind_of(token) & _NEG:
                found.update(_words(lowered(token)))
        hit = keep(_hits_cache, names, frozenset(found), _KEPT)
    return hit


def negative_words(words: str) -> bool:
    """Whether class and id tokens name boilerplate."""
    return _negative_kind(words) != 0


_LISTS = frozenset(("ul", "ol", "menu"))  # lists that may be a language menu


def negative_block(el: Any, tag: str) -> bool:
    """A boilerplate block by its tag or its class and id names."""
    if tag in STRUCTURAL_NEGATIVE:
        # A figure around a table, a code listing or a quotation frames content.
        if tag == "figcaption":
            return not attribution(el)
        if tag == "aside":
            return not notes(el)
        return tag != "figure" or next(el.iter(*_FRAMED), None) is None
    if tag in NEVER_NEGATIVE:
        return False
    if tag in _LISTS and language_menu(el):
        return True
    cls = el.get("class")
    ident = el.get("id")
    if not cls and not ident:
        return False
    # A site's own dialogs carry a class too: the roles are looked at only then.
    # (aria-modal="true" is only valid beside one of these roles.)
    if el.get("role") in _DIALOG_ROLES:
        return True
    verdict = _pair_cache.get((cls, ident))
    if verdict is None:
        verdict = keep(_pair_cache, (cls, ident), _pair(cls, ident), _KEPT)
    if not verdict:
        return False
    kind = verdict & _KIND
    without = verdict >> _WITHOUT & _KIND
    if kind != without and _topic(el, tag, ident):
        # An id that names the block's topic is read as no name at all: asked only when
        # the id changes what the names say (most ids name nothing), for each question
        # reads the block's children or its text.
        kind = without
    if kind == _NAMED_TEASER:
        return next(el.iter("a"), None) is not None
    if kind == _NAMED_PICTURE:
        return next(el.iterdescendants("p"), None) is None
    if kind == _NAMED_PAGER:
        return pager_sized(el)
    if kind == 0:
        return False
    return bool(verdict & _PLAIN) or not issue(el)


def _topic(el: Any, tag: str, ident: str) -> bool:
    """Whether a block's id names its topic, not its role."""
    # An id made of a heading's words (`sharing-with-a-single-developer`, a
    # documentation or wiki section's anchor) names the topic, not the block's role.
    if ident.count("-") >= 3 and len(el) and el[0].tag in HEADING:
        return True
    # A section whose heading's permalink leads to the section (Sphinx's `<section
    # id="cookies">` under "Cookies ¶"): a document's part, its id names its topic.
    if len(el) and el[0].tag in HEADING and permalinked(el[0], ident):
        return True
    # A heading's anchor made of its own words (`social-auth` on "Social Auth",
    # `see_also`): the topic, not the block's role.
    if tag in HEADING and _anchor_of(ident, el):
        return True
    # An API's entry named by its object (a dotted name, Sphinx's `<dt
    # id="django.db.models.query.QuerySet.select_related">`, rustdoc's `<section
    # id="method.share">`), or that links to itself with a pilcrow: its id is the
    # object's name ("related", "dates", "share"), not the block's role.
    if code_name(ident) or links_itself(el, ident):
        return True
    # A section's id made of its anchor's (Django's `s-select-related` around
    # `<span id="select-related">`): the topic again, not the block's role.
    return ident.startswith("s-") and len(el) > 0 and el[0].get("id") == ident[2:]


_WORD = re.compile(r"[a-z0-9]+")


def _anchor_of(ident: str, heading: Any) -> bool:
    """Whether every word of an id is in the heading's own text."""
    text = "".join(heading.itertext()).lower()
    return all(word in text for word in _WORD.findall(lowered(ident)))


_PAGER_NAME = re.compile(r"pagination|(?<![a-z])pager(?![a-z])")


def pager(el: Any) -> bool:
    """Whether an element is named as a pager and holds no more text than one."""
    return named_by(el, _PAGER_NAME) and pager_sized(el)


_class_kinds: dict[str, str] = {}
_DIGIT = re.compile(r"\d")


def class_kind(cls: str | None) -> str:
    """A class value without the tokens that number one element (cached: a page repeats
    its class values, and the kinds compare many)."""
    if not cls:
        return ""
    found = _class_kinds.get(cls)
    if found is None:
        if _DIGIT.search(cls) is None:
            found = cls
        else:
            found = " ".join(t for t in tokens(cls) if _DIGIT.search(t) is None)
        keep(_class_kinds, cls, found, _KEPT)
    return found


def never_content(el: Any, spared: frozenset[str] = frozenset()) -> bool:
    """Whether a box can never be the page's content (a dialog, comments, a consent
    manager, recommendations), by its role or names; names whose never-content words
    are all `spared` aside (a landing page's promotions, for its parts)."""
    if el.get("role") in _DIALOG_ROLES or el.get("aria-modal") == "true":
        return True
    names = f"{el.get('class') or ''} {el.get('id') or ''}"
    if not _NEVER_CONTENT.found(names):
        return False
    found = [
        token
        for token in tokens(names)
        if _NEVER_CONTENT.found(token) and not _spared(lowered(token))
    ]
    if not found:
        return False
    words = {word for token in found for word in _NEVER_CONTENT.matches(token)}
    if words <= spared:
        return False
    return not (words <= names_tuning.ISSUE_WORDS and issue(el))
