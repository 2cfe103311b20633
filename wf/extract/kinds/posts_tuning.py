"""The tuning data of a thread's posts as they are written (wf/extract/kinds/posts.py):
the fields of an author's card; and of the thread's tidying (tidy.py): where the page's
title names the topic. Apart from the scoring code, as wf/extract/tuning.py is."""

# A field of the author's card a board prints beside each post (vBulletin's "Join Date:
# Aug 2008", phpBB's "Posts: 1077", SMF's "Karma: +3/-0"): a short box of the label, a
# colon and a value is the card's, not the post's. The labels, in the languages boards
# are most often set in.
PROFILE_FIELDS = (
    "join date", "joined", "registered", "member since", "posts", "total posts",
    "messages", "location", "reputation", "rep power", "karma", "reaction score",
    "points", "likes", "thanks", "trophy points", "mitglied seit", "beiträge",
    "registriert", "wohnort", "inscrit le", "messages postés", "localisation",
)  # fmt: skip
PROFILE_FIELD_MAX = 60  # characters at most in such a box, label and value
# The author's card beside a post (name, rank, badges, then CARD_FIELDS_MIN fields or
# more) is never the way down to the post's body (kinds/thread.py _trim), however long a
# field it holds ("Programs: ..."): a box that holds such fields and, outside them and
# its links, CARD_WORDS_MAX characters at most ("Original Poster", "Senior Member"; a
# box of the card and a reply's body holds more).
CARD_FIELDS_MIN = 2
CARD_WORDS_MAX = 24
CARD_FIELD_MAX = 120  # characters at most in a field of a card, known or not, on its line
CARD_FIELD_ELEMENTS = 8  # elements at most in such a line (its value's <b>, a flag's <img>)
# A page declared a thread whose posts are no two of one shape (a question and its one
# answer): the boxes looked at as the answer at most (kinds/thread.py _lone_answer), each
# walking the children of the boxes above it (a hostile page has thousands).
LONE_ANSWER_TRIES = 20
# A link the poster gave in their post stays though it is a line of links alone: a
# paragraph of one link whose words are LINK_TITLE_MIN characters or more (a page's
# title, "https://github.com/..."), or a box whose links all read as addresses. Only a box
# of POSTED_TEXT_MAX characters at most and POSTED_LINKS_MAX links at most is looked at.
LINK_TITLE_MIN = 15
POSTED_LINKS_MAX = 20
POSTED_TEXT_MAX = 2000
ADDRESS_STARTS = ("http://", "https://", "www.")
# So does a paragraph whose links all start so: each names a person the poster answers
# ("Hi @ann", Discourse's and NodeBB's mentions), linked to their profile.
MENTION = "@"
# A quote in a post stays though it reads as a list of links: a board links its
# attribution to the quoted ("ann said:") and its box to the quoted post ("Click to
# expand..."), so that a quote of a few words has more of its text in links than out.
# An element in a quote (itself or one of the QUOTE_LEVELS - 1 boxes above it) stays
# when QUOTED_WORDS_MIN characters or more of its text are outside links, or when it is
# a line of ATTRIBUTION_MAX characters at most that ends in a colon.
QUOTE_LEVELS = 2
QUOTED_WORDS_MIN = 8
ATTRIBUTION_MAX = 60
# A reply too short to be prose ("Only way is up") in a box named for a comment, which the
# article rule reads as boilerplate, stays when it is words (not links) of REPLY_TEXT_MIN
# characters or more: platforms name every post so (Hacker News's "comment").
REPLY_NAME = r"(?<![a-z])comment"
REPLY_TEXT_MIN = 8
# A class word that names a comment's depth in its tree ("level-1", "comment-level-2",
# "level3"): a reply nested in a post and named one level deeper shows a thread of few
# comments (replies.leveled). The depth is the group.
REPLY_LEVEL = r"(?<![a-z])level[-_]?(\d+)(?![a-z0-9])"
# Where a page's <title> joins the topic's name to the board's and the site's ("Topic -
# Board - Site", "Site • View topic - Topic", NodeBB's "Topic @ Site"): a separator
# between spaces (kinds/tidy.py drop_topic).
TITLE_SEPARATOR = r"\s[-|•·»:/@–—]+\s"
# A forum engine's tally printed under or beside a post, on a line of its own, no words of
# the poster's: an attachment's size and downloads (phpBB "(95.79 KiB) Downloaded 478
# times", vBulletin "(23.4 KB, 12 views)"), a count of likes (SMF "1 person likes this.",
# "3 people like this"), the badge of the thread's starter (vBulletin's "Original Poster",
# XenForo's "Thread Starter") and a post's number alone ("#8").
POST_TALLY = (
    r"\(?[\d.,]+ ?(?:[kmg]i?b|bytes)(?:\)? ?(?:downloaded|viewed) [\d,]+ times?\.?"
    r"|, [\d,]+ (?:views?|downloads?)\))"
    r"|[\d,]+ (?:person|people|members?|users?) (?:likes?|liked) this\.?"
    r"|original poster|thread starter|topic starter|#\d+"
)
# The label a Q&A site puts first in an answer to another question that it shows among
# the question's own answers (then the other question's title): such a post goes
# (kinds/tidy.py drop_related). Matched whole, on the post's first words alone in their
# element.
RELATED_LABELS = frozenset(
    ("related", "related question", "related questions", "related answer", "related answers")
)
# A log pasted into a post (a build's or a server's output, kinds/logs.py): a code block
# in which LOG_STAMPS or more times of day to the second start an entry ("6:50:37 AM:",
# "2024-05-03 10:09:38.163"). Past LOG_KEEP lines (entries, when the log lost its line
# breaks to an inline <code>) it is cut: the head carries the error a reader answers, the
# hundreds of lines after it repeat it, and references of threads keep the head only.
LOG_STAMP = r"(?:^|(?<=[\s\[(]))(?:\d{4}-\d\d-\d\d[ T])?\d{1,2}:\d\d:\d\d(?:[.,]\d+)?(?: ?[AP]M)?\b"
LOG_STAMPS = 8
LOG_KEEP = 20
LOG_SCAN = 200  # code blocks of a thread looked at, at most (a hostile page has thousands)
LOG_MIN = 600  # characters at least in a block worth reading as a log
LOG_LEVELS = 3  # boxes above a <code> looked at for the <pre> it is read with
LOG_READ = 100_000  # characters of a code block read at most
# A line that asks the reader to join the board to see a part of a post ("Join to see
# EXIF info for this image", "Log in to view attachments", "Register to see the link"),
# or tells them they may not (phpBB's "You do not have the required permissions to view
# the files attached to this post."), or asks them to reply ("You must log in or register
# to reply here."):
# the board's, like "log in to reply", not the poster's. A box of GATE_MAX characters at
# most that says so and nothing else, of what a board hides (a poster's "Join to see the
# boats come in" stays).
_GATE_ASK = (
    r"(?:please |you must )?(?:join|log ?in|sign ?in|sign up|register)(?: now)?"
    r"(?: or [a-z ]{2,20})? to "
    r"|you (?:do not|don't|cannot|can't) have (?:the )?(?:required )?permissions? to "
)
POST_GATE = (
    rf"(?:{_GATE_ASK})(?:see|view|read|download|access) (?:the |this |these |all )?"
    r"(?:exif|links?|attachments?|images?|photos?|media|files?|(?:hidden )?content|replies"
    r"|signatures?|spoilers?|more)\b[^.!]{0,40}[.!]?"
)
# Or the board's notice under the last post: "Sign In or Register to comment.", in a box
# of the board's, not a paragraph (REPLY_GATE_TAGS): a poster who quotes it on a line of
# its own ("The board kept saying: / Log in to reply.") keeps it.
REPLY_GATE = (
    rf"(?:{_GATE_ASK})(?:reply|comment|post|answer)"
    r"(?: here| to this (?:topic|thread|discussion))?[.!]?"
)
REPLY_GATE_TAGS = frozenset(("p", "li", "blockquote", "pre", "td", "dd"))
GATE_MAX = 100
# The tail of the credentials a Q&A site or a board prints in a post's head, after the
# author's name and their own credential, inline, between separators: the counts of the
# author's activity ("· Author has 9.6K answers and 47.1M answer views", "1.2K followers,
# 310 posts"), who vouched for the answer or wrote it ("· Upvoted by ann, PhD History",
# "Liked by ann", "Answered by": its name taken into the post's line of author and date)
# and the button to follow them. A box of the head that holds one alone (CREDENTIAL_MAX
# characters at most) goes (kinds/tidy.py drop_credentials), and so does one that holds
# only the separators between the head's parts.
_ACTIVITY = (
    r"[\d.,]+[kmb]? (?:answers?|answer views?|views?|followers?|questions?|posts?|"
    r"reactions?)"
)
CREDENTIAL_TAIL = (
    r"(?:upvoted|answered|liked|endorsed|recommended) by\b.*"
    rf"|(?:(?:author|user|member) )?(?:has )?{_ACTIVITY}(?:(?:,| and| ·) {_ACTIVITY})*"
    r"|follow(?:ing)?"
)
CREDENTIAL_MAX = 300
CREDENTIAL_ELEMENTS = 60  # elements at most in such a box (each name's link nests deep)
HEADER_SEPARATORS = r"[\s·•|]+"
# A post's date kept whole only in a title (kinds/stamps.py): an ISO date and time, its
# zone after a space or not (Ruby's "2026-04-01 09:00:00 -0500"), a script's timestamp
# (seconds since 1970) after it at most ("2026-04-01T09:00:00 1775034000"), on a box
# that shows it as a time ago or not at all.
ISO_TITLE = (
    r"(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)(?::\d\d(?:\.\d+)?)?(?: ?(?:Z|[+-]\d\d:?\d\d))?"
    r"(?:\s+\d{9,11})?"
)
# An issue tracker's timeline event (kinds/events.py) is a short box (EVENT_MAX
# characters at most: a cross-reference shows the other issue's title) whose first named
# link, its actor's, is followed by one of these: "dora added the bug label", "ann opened
# this issue on Mar 3 · 4 comments" (the issue's header). Each must say what was done to
# the issue, not what a poster says.
EVENT_MAX = 300
EVENT_PHRASES = (
    r"(?:opened|closed|reopened|locked|unlocked|pinned|unpinned|transferred) this\b",
    r"(?:added|removed) (?:the|this to the|this from the)\b.*\b(?:labels?|milestone|project)s?\b",
    r"(?:mentioned|referenced) this (?:issue|pull request|merge request)\b",
    r"(?:self-assigned this|(?:un)?assigned\b)",
    r"linked (?:a|an) (?:pull request|merge request|issue|branch)\b",
    r"changed the (?:title|description|milestone)\b",
    r"marked (?:this|as) (?:as )?(?:a )?(?:duplicate|resolved|answered|ready|draft|completed)\b",
    r"requested (?:a )?review\b",
    r"(?:converted this to a draft|force-pushed|added \d+ commits?|added a commit)\b",
)
# A mailing list archive's message (kinds/mail.py): a <pre> after the message's head
# (a From and a Date; or a sender's mailto link), among the page's first MAIL_PRES, whose
# head is found among its MAIL_HEAD_SIBLINGS boxes before it, is prose when half its lines
# or more (quoted lines left out) hold MAIL_LINE_WORDS words or more and at most
# MAIL_CODE_SIGNS of a program's signs.
MAIL_PRES = 8
MAIL_HEAD_SIBLINGS = 12
MAIL_LINE_WORDS = 4
MAIL_CODE_SIGNS = 1
MAIL_SIGNS = "{}[]<>=;$\\|`_^~"
MAIL_FIELDS = {"from": "from", "von": "from", "de": "from", "date": "date", "datum": "date"}
# A topic's statistics above its first post (kinds/stats.py): counts of its answers,
# replies and views ("13 answers /", "2 replies · 340 views"), or the time of its latest
# post, a date after these words ("Last post: 01/12/2025 at 6:49 pm").
# The words of the counts: English, German, French, Spanish, Dutch, Portuguese.
_COUNTED = (
    r"(?:answers?|replies|reply|posts?|comments?|views?|messages?"
    r"|antworten|antwort|beitr[äa]ge|beitrag|aufrufe|zugriffe|kommentare?"
    r"|r[ée]ponses?|vues?|commentaires?"
    r"|respuestas?|visitas?|vistas?|mensajes?|comentarios?"
    r"|reacties?|antwoorden|weergaven|berichten|bericht"
    r"|respostas?|visualiza[çc][õo]es|mensagens?|coment[áa]rios?)"
)
# A digit first: "Antworten: ..." or "... replies" is a line cut short, no count.
_NUMBER = r"\d[\d.,]*\s*[kmb]?"
# "2 replies" or, label first, "Replies: 2".
_TOPIC_COUNT = rf"(?:{_NUMBER}\s+{_COUNTED}|{_COUNTED}\s*:\s*{_NUMBER})"
TOPIC_COUNTS = rf"{_TOPIC_COUNT}(?:\s*[/|·•,]?\s*{_TOPIC_COUNT})*\s*[/|·•]?"
LAST_POST = r"(?:last (?:post|reply|activity)|latest (?:post|reply))\s*:?\s*(.+)"
# A board's button over the posts that opens its reply or topic form, a box's whole text
# (phpBB's "Post Reply", vBulletin's "Reply to Thread", "New Topic"): no words of the thread.
TOPIC_ACTIONS = (
    r"(?:post (?:a )?reply|reply to (?:this )?(?:topic|thread)|post (?:a )?new (?:topic|thread)"
    r"|(?:start )?(?:a )?new (?:topic|thread))"
)
TOPIC_LINE_MAX = 80  # characters at most in such a line
TOPIC_BOXES = ("p", "div", "span", "li", "small", "dd", "td")  # the tags of such a line's box
TOPIC_BOX_ELEMENTS = 4  # elements at most inside such a box
# A board's words of attribution that start the first box of a quote drawn with names
# of no quote (vBulletin 3's panel: <div>Originally Posted by <strong>ann</strong></div>
# over the quoted words): the box around them is a quote (kinds/tidy.py).
# vBulletin's English; Simple Machines Forum's English, German, French, Spanish and Dutch
# ($txt['quote_from'] of its language packs, which its quote writes with a colon after,
# ": {author}": a post's own first line, "Quote from the manual: ...", is none).
QUOTE_ATTRIBUTIONS = (
    "Originally Posted by",
    "Quote from:",
    "Zitat von:",
    "Citation de:",
    "Cita de:",
    "Citaat van:",
)
QUOTE_PARTS = 3  # boxes at most in such a quote: the attribution, the words, an icon's
# A post so marked is the answer its asker accepted (schema.org's itemprop acceptedAnswer;
# Stack Exchange's and Discourse's class): its line of author and date says so, as the
# page does with a tick (posts.accepted), searched in a lowered class attribute.
ACCEPTED_CLASS = r"(?<![\w-])accepted-answer(?![\w-])"
ACCEPTED_LINE = "accepted answer"
# The badge an accepted answer shows in a box of its own, in lower case (posts.badge):
# GitHub Discussions' marked answers, forums' accepted solutions and best answers.
ACCEPTED_BADGES = (
    "marked as answer",
    "accepted answer",
    "accepted solution",
    "best answer",
    "marked as solution",
    "als antwort markiert",
    "beste antwort",
    "meilleure réponse",
    "mejor respuesta",
)
# Where those words are written in a post, not drawn as its badge (posts.badge).
BADGE_NOT_IN = ("p", "blockquote", "pre")
# The thread's content grows from its posts' box to the ancestors that add prose with few
# links (the question above a box of answers; kinds/thread.py _grow, replies.opening).
GROW_LEVELS = 2  # ancestors of the posts' box looked at for the question
GROW_LINKS_MAX = 3  # an ancestor adds at most 1/3 of its added text in links
# A link aggregator's story line above its comments (kinds/story.py): STORY_TEXT_MAX
# characters at most, its title among its first STORY_LINKS links, its domain among its
# first STORY_ELEMENTS elements, each read in STORY_PIECES pieces of text at most. The
# domain is a host name, in brackets or not ("(example.org)", "example.org/~ann").
STORY_TEXT_MAX = 400
STORY_LINKS = 8
STORY_ELEMENTS = 64
STORY_PIECES = 8
STORY_DOMAIN = r"\(?((?:[a-z0-9-]+\.)+[a-z]{2,}(?:/[^\s()]*)?)\)?"
# The first class word of a reply nested in a post and drawn otherwise than the posts
# (replies.nested): an answer's replies under it ("nested-comment", "reply-item",
# "comment-replies"), in lower case as class_kind gives it.
NESTED_REPLY = r"(?<![a-z])(?:nested|repl(?:y|ies))(?![a-z])"
# A board's notice of what became of the topic, printed as a post of its own under a
# system account (Discourse's small action: "This topic was automatically closed after 30
# days. New replies are no longer allowed.") or as a line among the posts: the board's
# words, no poster's reply. A post whose words, its line of author and date aside, are
# such a notice and nothing more (CLOSING_MAX characters at most) goes with its line
# (kinds/board.py). Its first sentence says what became of the topic, and when, by whom
# or where to in the board's words (_WHEN: "after 30 days", "90 days after the last
# reply", "on Mar 5, 2026", "by a moderator", "moved to Off-topic"); a poster's sentence
# says why or how ("solved by reinstalling the driver", "pinned because ..."), or goes on
# after a comma; a second, if any, what a reader may no longer do.
_TOPIC = r"this (?:topic|thread|discussion|question|conversation)"
_BECAME = (
    r"(?:closed|locked|archived|unlisted|listed|pinned|unpinned|opened|reopened"
    r"|marked as solved|solved|(?:moved|merged|split)(?: (?:to|into|from) [^.!,:;]{1,40})?)"
)
_SPAN = r"\d+ (?:minutes?|hours?|days?|weeks?|months?|years?)"
_WHEN = (
    rf"(?: (?:after |in )?{_SPAN}(?: after (?:the )?(?:last|first) (?:reply|post|comment))?"
    r"| on (?:[a-z]{3,9}\.? \d{1,2}(?:st|nd|rd|th)?(?:,? \d{4})?|\d{1,2} [a-z]{3,9}\.?(?: \d{4})?"
    r"|\d{4}-\d\d-\d\d)"
    r"| by (?:an? |the )?(?:moderators?|admin(?:istrator)?s?|staff(?: member)?|system|owner|op"
    r"|author|community(?: team)?)"
    r"| (?:due to|for) inactivity){0,3}"
)
CLOSING = (
    rf"{_TOPIC} (?:was|is|has been|will be|got)(?: now)?(?: automatically)? {_BECAME}{_WHEN}"
    r"[.!]?"
    r"(?: (?:new |further )?(?:replies|posts|comments|answers) (?:are|is) no longer "
    r"(?:allowed|accepted|possible)[.!]?| it is frozen and cannot be changed in any way[.!]?)?"
)
CLOSING_MAX = 200
# A script's link that unfolds or folds a part of a post (Invision's "Expand" under a long
# quote, "Show more"), to no page: a button drawn as a link (kinds/board.py), of
# TOGGLE_MAX characters at most.
POST_TOGGLE = (
    r"(?:click (?:here )?to )?(?:expand|collapse|show (?:more|less|all)|see more|view more"
    r"|read more)(?: (?:quote|post|text))?(?:\.\.\.|…)?"
)
TOGGLE_MAX = 40
# A support team's prompt under its answers, asking the reader to rate the post by the
# icons below it ("Did this help? Please give feedback by clicking an icon below ⬇️"):
# a box whose whole text is such a question and the request for feedback goes
# (kinds/board.py), looked for from the texts that hold FEEDBACK_SEED, up
# FEEDBACK_LEVELS boxes; FEEDBACK_MAX of them a thread. The question alone is the
# poster's words ("Did this help?" at the end of an answer), and so are thanks for
# feedback ("Thanks for the feedback!" is a reply).
POST_FEEDBACK = (
    r"(?:(?:did|does) this (?:answer |post |reply )?help(?: you)?"
    r"|was this (?:answer |post |reply )?helpful)[?!.]?"
    r"\s*please (?:give|leave|send|share) (?:us )?(?:your |some )?feedback"
    r"(?: by (?:clicking|choosing|selecting|tapping) [\w ]{1,30})?[.!:]?"
    r"(?:\s*[\u2190-\u21ff\u2b00-\u2bff\ufe0f\U0001f447]+)*"
)
FEEDBACK_SEED = "eedback"  # as written: "Feedback" and "feedback"
FEEDBACK_LEVELS = 3
FEEDBACK_MAX = 50
FEEDBACK_READ = 200  # characters of such a box read at most
# A link whose words a board shortened from its address (phpBB's and vBulletin's
# "https://github.com/raspberrypi/firmware ... ays/README", FluxBB's "… "): the head and the
# tail of the address around an ellipsis, the head SHORTENED_HEAD characters at least
# past its scheme, the whole SHORTENED_MAX characters at most (kinds/board.py).
SHORTENED = r"(?:https?://)?(\S+?)\s*(?:\.\.\.|…)\s*(\S+)"
SHORTENED_HEAD = 8
SHORTENED_MAX = 200
