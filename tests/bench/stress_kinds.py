"""Stress benchmark for issue 12's failure kinds: real pages with one kind of boilerplate
put into them at a time, scored against the page's unchanged reference.

The failure kinds (consent dialogs, "please enable JavaScript" notices, subscription and
related-article teasers, long comment and trivia sections, cookie bars with login walls)
have rules and small-page tests; this measures whether the rules hold when the
boilerplate is real-sized and sits where sites put it, in real pages around it.

Pages: the TUNING parts of both sets in ../shared/extract-bench (scrapinghub and
readability), split as bench_extract.py splits them (its `held_out`); the held-out pages
are never read here. Scoring is bench_extract.py's (its `page_scores` and `summarise`;
CJK by characters on the readability set).

Where each kind goes: at the start or the end of <body> (dialogs, notices, bars), or in
the article's container, found with the reference text (the block whose paragraphs hold
most of the reference's shingles): after its second paragraph and at its end (teasers,
trivia, login walls), or right after it in the same parent (comment sections). Each page
is parsed and written back once, with an empty placeholder at every such place; a
variant fills one of them, and the page with none filled is the baseline, so that the
round trip through lxml costs the baseline as much as the variants.

Every boilerplate text here is our own writing (English, German, French and Japanese),
varied in length, wording and markup: platform ids and classes, dialog roles, fixed
overlays, and boxes with no such marker at all.

For each kind: the set F1 with and without it, the (page, variant) pairs whose own F1
drops by more than 0.10 (a whole-block miss, or a block kept whole), and those whose
recall does (the article lost, not boilerplate kept beside it).

Run with the bench venv (or the project's venv; it needs lxml only):
    .bench-venv/bin/python tests/bench/stress_kinds.py [--details] [--kind KIND]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_extract as bench  # noqa: E402

# -- the texts (our own), per language ---------------------------------------------------

LEGAL = {
    "en": [
        "We and our {n} partners store and/or access information on your device, such as "
        "unique identifiers in cookies, to process personal data.",
        "You may accept or manage your choices by clicking below, including your right to "
        "object where legitimate interest is used, or at any time in the privacy policy page.",
        "These choices will be signalled to our partners and will not affect browsing data.",
        "Store and/or access information on a device: cookies, device or similar online "
        "identifiers together with other information can be stored or read on your device "
        "when you open an app or a website, for one or more of the purposes listed here.",
        "Personalised advertising and content, advertising and content measurement, audience "
        "research and services development are processed by vendors on the basis of your "
        "consent or of their legitimate interest.",
        "Some of our vendors combine the data collected here with data from other sources "
        "to build profiles of your interests and to show you offers that suit them better.",
        "Precise geolocation data and identification through device scanning may be used "
        "by a small number of vendors; you can refuse this separately in the settings.",
        "Your consent is stored for twelve months in a first-party cookie; withdraw it at "
        "any time with the link 'Privacy settings' at the bottom of each page.",
        "Measure content performance: information regarding which content is presented to "
        "you and how you interact with it can be used to determine whether it reached you.",
        "Use limited data to select advertising: advertising presented to you on this "
        "service can be based on limited data, such as the website or app you are using.",
        "Understand audiences through statistics or combinations of data from different "
        "sources, and develop and improve services with the reports that result.",
        "Ensure security, prevent and detect fraud, and fix errors: your data can be used to "
        "monitor for and prevent unusual activity, and to ensure systems work properly.",
    ],
    "de": [
        "Wir und unsere {n} Partner speichern und/oder greifen auf Informationen auf Ihrem "
        "Gerät zu, zum Beispiel auf Cookies und eindeutige Kennungen.",
        "Mit Ihrer Zustimmung verarbeiten wir und unsere Partner personenbezogene Daten für "
        "personalisierte Anzeigen und Inhalte, Messungen und Zielgruppenforschung.",
        "Einige Anbieter verarbeiten Ihre Daten auf Grundlage eines berechtigten Interesses, "
        "dem Sie in den Einstellungen jederzeit widersprechen können.",
        "Ihre Einwilligung gilt für diese Website und wird für dreizehn Monate in einem "
        "Cookie gespeichert; Sie können sie über den Link Datenschutz-Einstellungen im "
        "Fußbereich jeder Seite widerrufen.",
        "Informationen auf einem Gerät speichern und abrufen: Cookies, Gerätekennungen und "
        "andere Informationen können auf Ihrem Gerät gespeichert oder ausgelesen werden.",
        "Eingeschränkte Daten zur Auswahl von Werbung verwenden, Profile für personalisierte "
        "Werbung erstellen und die Leistung von Werbung und Inhalten messen.",
        "Die Verarbeitung kann auch eine Übermittlung in Drittländer umfassen, in denen kein "
        "vergleichbares Datenschutzniveau besteht; Einzelheiten finden Sie in unserer "
        "Datenschutzerklärung.",
        "Genaue Standortdaten und eine Identifizierung durch Gerätescans werden nur von "
        "wenigen Anbietern genutzt und lassen sich gesondert ablehnen.",
        "Sicherheit gewährleisten, Betrug verhindern und Fehler beheben: Ihre Daten können "
        "genutzt werden, um ungewöhnliche Aktivitäten zu erkennen.",
        "Zielgruppen durch Statistiken oder Kombinationen von Daten aus verschiedenen "
        "Quellen verstehen sowie Angebote entwickeln und verbessern.",
    ],
    "fr": [
        "Avec votre accord, nous et nos {n} partenaires utilisons des cookies ou technologies "
        "similaires pour stocker, consulter et traiter des données personnelles.",
        "Vous pouvez retirer votre consentement ou vous opposer aux traitements fondés sur "
        "l'intérêt légitime à tout moment en cliquant sur Paramétrer les cookies.",
        "Nos partenaires traitent les données aux finalités suivantes : publicités et "
        "contenus personnalisés, mesure de performance des publicités et du contenu, études "
        "d'audience et développement de services.",
        "Stocker et/ou accéder à des informations sur un appareil : des cookies, des "
        "identifiants d'appareil ou d'autres informations peuvent être stockés sur votre "
        "appareil.",
        "Votre choix est conservé pendant six mois dans un cookie et ne s'applique qu'à ce "
        "site ; la liste complète des partenaires figure dans notre politique de "
        "confidentialité.",
        "Certaines données peuvent être transférées hors de l'Union européenne, vers des pays "
        "dont le niveau de protection n'est pas équivalent.",
        "Utiliser des données limitées pour sélectionner la publicité, créer des profils "
        "pour une publicité personnalisée et mesurer l'audience de nos contenus.",
        "Assurer la sécurité, prévenir et détecter la fraude et réparer les erreurs : vos "
        "données peuvent servir à surveiller et prévenir les activités inhabituelles.",
    ],
    "ja": [
        "当サイトでは、{n}社のパートナーと共に、お客様の端末に保存されたクッキーなどの情報を"
        "利用して、個人データを処理しています。",
        "同意を選択すると、パーソナライズされた広告やコンテンツの表示、広告とコンテンツの測定、"
        "利用者層の分析、サービスの開発に利用されます。",
        "一部のパートナーは、正当な利益に基づいてお客様のデータを処理します。"
        "設定画面からいつでも異議を申し立てることができます。",
        "同意はいつでもページ下部のプライバシー設定から撤回できます。"
        "選択内容はクッキーに十二か月間保存されます。",
        "端末に情報を保存し、または端末の情報にアクセスすることがあります。"
        "詳しくはプライバシーポリシーをご覧ください。",
        "正確な位置情報の利用や端末のスキャンによる識別は、個別に拒否することができます。",
    ],
}
LEGAL_HEAD = {
    "en": ("We value your privacy", "Accept all", "Reject all", "Manage options"),
    "de": ("Wir respektieren Ihre Privatsphäre", "Alle akzeptieren", "Ablehnen", "Einstellungen"),
    "fr": (
        "Vos choix en matière de cookies",
        "Tout accepter",
        "Continuer sans accepter",
        "Paramétrer",
    ),
    "ja": ("プライバシーの設定", "すべて同意する", "拒否する", "詳細設定"),
}
PURPOSES = {
    "en": ("Strictly necessary", "Performance", "Functional", "Targeting", "Social media"),
    "de": ("Notwendig", "Statistik", "Marketing", "Externe Medien", "Komfort"),
    "fr": ("Nécessaires", "Mesure d'audience", "Publicité", "Réseaux sociaux"),
    "ja": ("必須", "分析", "広告", "機能"),
}

SCRIPT_NOTICE = {
    "en_short": "Please enable JavaScript in your browser to use this site.",
    "en_long": (
        "JavaScript is disabled in your browser. This website needs JavaScript for its "
        "navigation, its search, the video player and the comment section. Please turn on "
        "JavaScript in your browser's settings and reload the page, or use an up-to-date "
        "browser such as the current release of the one you are using now."
    ),
    "de_long": (
        "In Ihrem Browser ist JavaScript deaktiviert. Um alle Funktionen dieser Website "
        "nutzen zu können, etwa die Suche, die Merkliste und den Videoplayer, aktivieren Sie "
        "bitte JavaScript in den Einstellungen Ihres Browsers und laden Sie die Seite neu. "
        "Eine Anleitung für die gängigen Browser finden Sie auf unserer Hilfeseite."
    ),
    "fr_long": (
        "Pour profiter de toutes les fonctionnalités de ce site, vous devez activer "
        "JavaScript dans votre navigateur. Sans JavaScript, la lecture des vidéos, les "
        "commentaires et la recherche ne fonctionnent pas. Consultez l'aide de votre "
        "navigateur pour savoir comment l'activer, puis rechargez cette page."
    ),
    "ja_short": "このサイトを正しく表示するには、ブラウザのJavaScriptを有効にしてください。",
    "ja_long": (
        "お使いのブラウザではJavaScriptが無効になっています。このサイトの検索、動画の再生、"
        "コメント欄などの機能を利用するには、ブラウザの設定でJavaScriptを有効にしてから、"
        "ページを再読み込みしてください。設定の方法は各ブラウザのヘルプをご覧ください。"
    ),
    "en_video": (
        "To view this video please enable JavaScript, and consider upgrading to a web "
        "browser that supports HTML5 video."
    ),
}

NEWSLETTER = {
    "de": (
        "Der Morgen-Newsletter",
        "Jeden Morgen um sechs die wichtigsten Nachrichten aus der Region direkt in Ihr "
        "Postfach: Jetzt kostenlos anmelden und Vorteile sichern!",
        "Jetzt anmelden",
    ),
    "en": (
        "Get the Daily Brief",
        "Our editors pick the five stories you need each weekday, delivered to your inbox "
        "before breakfast. Sign up free, unsubscribe any time.",
        "Sign me up",
    ),
    "fr": (
        "Recevez notre lettre",
        "Chaque vendredi, le meilleur de la semaine dans votre boîte mail : inscrivez-vous "
        "gratuitement et profitez de nos offres réservées aux abonnés.",
        "Je m'inscris",
    ),
    "ja": (
        "メールマガジン",
        "毎朝、編集部が選んだ注目のニュースをお届けします。登録は無料で、いつでも解除できます。",
        "今すぐ登録",
    ),
}
RELATED = {
    "en": (
        "More on this story",
        [
            "City council votes to extend the night bus trial for another year",
            "What the new parking rules mean for residents of the old town",
            "Five years on, the river path is finally ready for cyclists",
            "Opinion: Why our libraries need longer opening hours",
            "Photos: The harvest festival returns after a three-year break",
            "Local bakery wins national prize for its rye sourdough",
        ],
    ),
    "de": (
        "Unsere neue Rubrik",
        [
            "So wird das Wetter am langen Wochenende in der ganzen Region",
            "Neues Parkhaus am Bahnhof: Das sind die Preise für Pendler",
            "Kommentar: Warum die Innenstadt mehr Bänke braucht",
            "Stadtfest 2026: Alle Bands und Zeiten im Überblick",
            "Bäckerei in dritter Generation schließt nach 90 Jahren",
            "Diese fünf Wanderwege lohnen sich im Herbst besonders",
        ],
    ),
    "fr": (
        "À lire aussi",
        [
            "Les travaux du tramway prendront six mois de plus que prévu",
            "Rentrée scolaire : ce qui change pour les familles cette année",
            "Le marché couvert rouvre ses portes après deux ans de chantier",
            "Tribune : pour un vrai plan vélo dans les communes rurales",
            "Canicule : les bons réflexes pour protéger les plus âgés",
        ],
    ),
    "ja": (
        "関連記事",
        [
            "駅前の再開発、来年春に着工へ　市が計画を発表",
            "秋の連休、行楽地の混雑予想まとめ",
            "地元の高校生がロボット大会で全国優勝",
            "新しい図書館が開館　初日に三千人が来場",
            "週末の天気　各地で冷え込み強まる見通し",
        ],
    ),
}
EXCERPT = {
    "en": "Readers have asked us what changes next month and who is affected most.",
    "de": "Was sich im nächsten Monat ändert und wen es besonders trifft, lesen Sie hier.",
    "fr": "Ce qui change le mois prochain et qui est concerné en premier.",
    "ja": "来月から何が変わるのか、影響を受けるのは誰かをまとめました。",
}

COMMENTS = {
    "en": [
        "I have lived here for twenty years and I have never seen the council move this fast "
        "on anything, so I will believe it when the work actually starts.",
        "Good piece, but it leaves out the people who commute from the villages, who have no "
        "other way in and who will pay for all of this in the end.",
        "My daughter's school is on that road. Nobody asked the parents before the plans were "
        "drawn up, and the meeting last spring was held at two in the afternoon.",
        "The numbers in the third paragraph do not add up: if the cost doubled, how can the "
        "yearly budget stay the same? Would love to see the full report.",
        "Finally some good news. Well done to the volunteers who kept pushing for years while "
        "everyone told them it would never happen.",
        "Same story in our town five years ago. It took three tries and two lawsuits, and now "
        "everyone pretends they were in favour from the start.",
        "Does anyone know whether the footpath stays open during the building work? My dog "
        "and I walk it every morning and there is no other route.",
        "I disagree with most of the comments here. Change is never comfortable, but doing "
        "nothing has a cost too, and we have been paying it for a long time.",
    ],
    "de": [
        "Ich wohne seit zwanzig Jahren in der Straße und habe noch nie erlebt, dass die Stadt "
        "so schnell etwas umsetzt. Ich glaube es erst, wenn die Bagger anrollen.",
        "Guter Artikel, aber die Pendler aus den Dörfern kommen gar nicht vor. Die haben "
        "keine andere Verbindung und zahlen am Ende die Zeche.",
        "Die Zahlen im dritten Absatz passen nicht zusammen: Wenn sich die Kosten verdoppeln, "
        "wie kann der Haushalt gleich bleiben? Den ganzen Bericht würde ich gern lesen.",
        "Endlich mal eine gute Nachricht. Respekt an die Ehrenamtlichen, die jahrelang "
        "drangeblieben sind, obwohl alle gesagt haben, das wird nie was.",
        "Bei uns im Ort war es vor fünf Jahren genauso. Drei Anläufe und zwei Klagen, und "
        "jetzt tun alle so, als wären sie von Anfang an dafür gewesen.",
        "Weiß jemand, ob der Fußweg während der Bauarbeiten offen bleibt? Mein Hund und ich "
        "gehen da jeden Morgen entlang, einen anderen Weg gibt es nicht.",
        "Ich sehe das anders als die meisten hier. Veränderung ist nie bequem, aber Stillstand "
        "kostet auch, und den bezahlen wir schon lange.",
    ],
    "fr": [
        "J'habite le quartier depuis vingt ans et je n'ai jamais vu la mairie aller aussi "
        "vite. Je le croirai quand les travaux commenceront vraiment.",
        "Bon article, mais il oublie ceux qui viennent des villages chaque matin et qui "
        "n'ont pas d'autre moyen de transport que leur voiture.",
        "Les chiffres du troisième paragraphe ne collent pas : si le coût double, comment le "
        "budget annuel peut-il rester le même ? J'aimerais lire le rapport complet.",
        "Enfin une bonne nouvelle. Bravo aux bénévoles qui ont insisté pendant des années "
        "alors que tout le monde leur disait que ça n'aboutirait jamais.",
        "Même histoire chez nous il y a cinq ans : trois tentatives, deux recours, et "
        "aujourd'hui tout le monde prétend avoir été pour dès le début.",
        "Quelqu'un sait si le chemin piéton restera ouvert pendant le chantier ? Je le prends "
        "tous les matins avec mon chien et il n'y a pas d'autre passage.",
    ],
    "ja": [
        "この通りに二十年住んでいますが、市がこんなに早く動いたのは初めてです。"
        "実際に工事が始まるまでは信じられません。",
        "良い記事ですが、郊外から毎日通勤している人たちのことが書かれていません。"
        "他に交通手段がないのです。",
        "三段落目の数字が合わないと思います。費用が倍になったのに予算が変わらないのはなぜでしょうか。",
        "やっと良いニュースが聞けました。何年も諦めずに活動してきたボランティアの皆さんに感謝します。",
        "工事の間も歩道は通れるのでしょうか。毎朝犬と散歩しているので気になります。",
    ],
}
NAMES = ["mara_k", "Jonas B.", "oldtown_dad", "Claire D.", "kenji77", "R. Okafor", "lisa"]
AGO = {"en": "3 hours ago", "de": "vor 3 Stunden", "fr": "il y a 3 heures", "ja": "3時間前"}
REPLY = {"en": "Reply", "de": "Antworten", "fr": "Répondre", "ja": "返信"}

TRIVIA = {
    "en": [
        "The lead actor learned to sail for the part and did most of the harbour scenes "
        "himself, without a double, over two cold weeks in March.",
        "An early draft of the script was set in a mining town; the coast was chosen after "
        "the writer spent a summer working in a fish market.",
        "The lighthouse seen in the film is a plywood tower built on a car park, painted to "
        "match a real one two hundred kilometres to the north.",
        "Several extras were residents of the village, and the café owner who appears in the "
        "second act is the real owner of the café.",
        "The score was recorded in a single day by a string quartet that had never played "
        "film music before, in a church chosen for its echo.",
        "A storm destroyed part of the set in the fourth week, and the crew rewrote two "
        "scenes so that the damage became part of the story.",
        "The dog in the final scene belonged to the director's neighbour and was paid in "
        "sausages, according to the making-of documentary.",
        "The title was changed three times during editing, and the posters printed with the "
        "second title are now sought after by collectors.",
    ],
    "de": [
        "Für die Rolle lernte der Hauptdarsteller segeln und drehte die meisten Hafenszenen "
        "selbst, ohne Double, in zwei kalten Märzwochen.",
        "Eine frühe Fassung des Drehbuchs spielte in einer Bergbaustadt; die Küste kam erst "
        "hinzu, nachdem der Autor einen Sommer auf einem Fischmarkt gearbeitet hatte.",
        "Der Leuchtturm im Film ist ein Turm aus Sperrholz auf einem Parkplatz, bemalt nach "
        "dem Vorbild eines echten zweihundert Kilometer weiter nördlich.",
        "Mehrere Statisten wohnten im Dorf, und die Wirtin, die im zweiten Akt auftritt, "
        "führt das Café auch in Wirklichkeit.",
        "Ein Sturm zerstörte in der vierten Woche einen Teil der Kulissen, und das Team "
        "schrieb zwei Szenen um, so dass der Schaden Teil der Geschichte wurde.",
        "Der Titel wurde während des Schnitts dreimal geändert; Plakate mit dem zweiten Titel "
        "sind heute bei Sammlern begehrt.",
    ],
}

LOGIN = {
    "en": (
        "We use cookies to give you the best experience. By continuing you agree to our use of cookies.",
        ("OK", "More info"),
        "Log in to keep reading",
        "Create a free account or log in to read the rest of this article.",
        ("Log in", "Create account"),
    ),
    "de": (
        "Diese Seite verwendet Cookies. Mit der Nutzung stimmen Sie dem zu.",
        ("Verstanden", "Mehr erfahren"),
        "Weiterlesen mit Konto",
        "Melden Sie sich an oder registrieren Sie sich kostenlos, um weiterzulesen.",
        ("Anmelden", "Registrieren"),
    ),
    "fr": (
        "Ce site utilise des cookies pour améliorer votre expérience.",
        ("J'accepte", "En savoir plus"),
        "Connectez-vous pour lire la suite",
        "Créez un compte gratuit ou connectez-vous pour continuer votre lecture.",
        ("Se connecter", "Créer un compte"),
    ),
    "ja": (
        "当サイトはクッキーを使用しています。",
        ("同意する", "詳細"),
        "続きを読むにはログイン",
        "無料会員登録またはログインすると、記事の続きをお読みいただけます。",
        ("ログイン", "会員登録"),
    ),
}

# -- the variants ------------------------------------------------------------------------

# Places: body start, body end, after the container's 2nd paragraph, the container's end,
# right after the container (same parent).
START, END, AFTER_P2, CONTAINER_END, AFTER_CONTAINER = range(5)
PLACES = 5
DROP = 0.10  # a page's F1 (or recall) falling by more than this is a whole-block failure


@dataclass(frozen=True)
class Variant:
    kind: str
    name: str
    place: int
    make: Callable[[random.Random], str]


def _legal(rng: random.Random, lang: str, chars: int) -> list[str]:
    """Paragraphs of legal text, at least `chars` characters (JA: a third of that)."""
    pool = LEGAL[lang]
    want = chars // 3 if lang == "ja" else chars
    out: list[str] = []
    n = 0
    order = list(pool)
    while n < want:
        rng.shuffle(order)
        for s in order:
            s = s.replace("{n}", str(rng.randint(90, 980)))
            out.append(s)
            n += len(s)
            if n >= want:
                break
    return out


def _consent(
    rng: random.Random,
    lang: str,
    chars: int,
    outer: str,
    inner: str,
    *,
    purposes: bool = True,
    buttons: str = "button",
) -> str:
    head, yes, no, more = LEGAL_HEAD[lang]
    paras = _legal(rng, lang, chars)
    split = max(1, len(paras) // 2)
    body = "".join(f"<p>{p}</p>" for p in paras[:split])
    if purposes:
        # The rest of the text under the purposes' headings, a paragraph or more each.
        rest, names = paras[split:], PURPOSES[lang]
        items = "".join(
            f"<div class='it'><h3>{name}</h3>"
            + "".join(f"<p>{x}</p>" for x in rest[k :: len(names)])
            + "</div>"
            for k, name in enumerate(names)
        )
    else:
        items = "".join(f"<p>{p}</p>" for p in paras[split:])
    if buttons == "button":
        btns = f"<button>{yes}</button><button>{no}</button><button>{more}</button>"
    else:
        btns = f"<a href='#' class='b1'>{yes}</a> <a href='#' class='b2'>{more}</a>"
    inside = f"<h2>{head}</h2>{inner}{body}{items}</div><div class='f'>{btns}</div>"
    # `outer` is the opening tags of the dialog's boxes: close each, innermost first.
    closing = "".join(f"</{t}>" for t in reversed(re.findall(r"<([a-z]+)", outer)))
    return f"{outer}{inside}{closing}"


def _consent_variants() -> list[Variant]:
    def v(name: str, place: int, lang: str, chars: int, outer: str, **kw: object) -> Variant:
        return Variant(
            "consent",
            name,
            place,
            lambda rng: _consent(rng, lang, chars, outer, "<div class='t'>", **kw),  # type: ignore[arg-type]
        )

    return [
        v(
            "onetrust-en-start",
            START,
            "en",
            3500,
            "<div id='onetrust-consent-sdk'><div id='onetrust-banner-sdk' class='otFloatingRoundedCorner'"
            " role='dialog' aria-label='Privacy'>",
        ),
        v(
            "cookiebot-de-end",
            END,
            "de",
            2500,
            "<div id='CybotCookiebotDialog' class='CybotEdge'><div>",
        ),
        v(
            "usercentrics-fr-start",
            START,
            "fr",
            1800,
            "<aside id='usercentrics-cmp' class='uc-embedding'><div>",
            purposes=False,
        ),
        v(
            "didomi-de-start",
            START,
            "de",
            5500,
            "<div id='didomi-host'><div class='didomi-popup-container'>",
        ),
        v(
            "sourcepoint-en-end",
            END,
            "en",
            2000,
            "<div id='sp_message_container_812345' class='message-container'><div class='message type-modal'>",
        ),
        v(
            "quantcast-fr-end",
            END,
            "fr",
            3000,
            "<div id='qc-cmp2-container'><div class='qc-cmp2-summary-section'>",
        ),
        v(
            "role-ja-start",
            START,
            "ja",
            2400,
            "<div class='pp-layer' role='dialog' aria-modal='true' aria-labelledby='pp-t'><div>",
        ),
        v(
            "fixed-en-end",
            END,
            "en",
            4500,
            "<div class='x-ov' style='position:fixed;inset:0;z-index:99999'><div class='x-box'>",
            buttons="a",
        ),
        v("unmarked-de-end", END, "de", 3000, "<div class='lyr'><div class='lyr-in'>", buttons="a"),
        v(
            "unmarked-en-start",
            START,
            "en",
            6000,
            "<div class='l0'><div class='l1'>",
            purposes=False,
            buttons="a",
        ),
    ]


def _script_variants() -> list[Variant]:
    def v(name: str, place: int, html: str) -> Variant:
        return Variant("script", name, place, lambda rng: html)

    s = SCRIPT_NOTICE
    return [
        v(
            "noscript-short-en",
            START,
            f"<noscript><div class='ns'>{s['en_short']}</div></noscript>",
        ),
        v(
            "noscript-long-de",
            START,
            f"<noscript><div class='wrap'><p>{s['de_long']}</p></div></noscript>",
        ),
        v("noscript-long-ja", END, f"<noscript><p>{s['ja_long']}</p></noscript>"),
        v(
            "div-long-en",
            START,
            f"<div class='msg'><div class='msg-in'><p>{s['en_long']}</p></div></div>",
        ),
        v("div-long-fr", START, f"<div class='bandeau'><p>{s['fr_long']}</p></div>"),
        v("div-short-ja", START, f"<div class='note'>{s['ja_short']}</div>"),
        v("div-video-en-inside", AFTER_P2, f"<div class='player'><p>{s['en_video']}</p></div>"),
        v("noscript-long-en-inside", CONTAINER_END, f"<noscript><p>{s['en_long']}</p></noscript>"),
    ]


def _newsletter(lang: str, link: bool, cls: str) -> str:
    head, text, button = NEWSLETTER[lang]
    act = f"<a href='/newsletter'>{button}</a>" if link else f"<button>{button}</button>"
    return f"<div class='{cls}'><h3>{head}</h3><p>{text}</p><form action='/nl'>{act}</form></div>"


def _related(lang: str, cls: str, *, cards: bool, link: bool = True) -> str:
    head, titles = RELATED[lang]
    if cards:
        items = "".join(
            f"<div class='card'><a href='/a/{n}'><h4>{t}</h4></a><p>{EXCERPT[lang]}</p></div>"
            if link
            else f"<div class='card'><h4>{t}</h4><p>{EXCERPT[lang]}</p></div>"
            for n, t in enumerate(titles)
        )
    else:
        items = (
            "<ul>"
            + "".join(f"<li><a href='/a/{n}'>{t}</a></li>" for n, t in enumerate(titles))
            + "</ul>"
        )
    return f"<div class='{cls}'><h3>{head}</h3>{items}</div>"


def _teaser_variants() -> list[Variant]:
    def v(name: str, place: int, html: str) -> Variant:
        return Variant("teaser", name, place, lambda rng: html)

    return [
        v("newsletter-de-link-p2", AFTER_P2, _newsletter("de", True, "box-k")),
        v("newsletter-en-nolink-p2", AFTER_P2, _newsletter("en", False, "inline-unit")),
        v("newsletter-fr-link-end", CONTAINER_END, _newsletter("fr", True, "encart")),
        v("newsletter-ja-nolink-end", CONTAINER_END, _newsletter("ja", False, "mm-box")),
        v("related-en-list-p2", AFTER_P2, _related("en", "c-inline", cards=False)),
        v("related-de-cards-end", CONTAINER_END, _related("de", "box-r", cards=True)),
        v("related-fr-list-end", CONTAINER_END, _related("fr", "bloc-x", cards=False)),
        v("related-ja-cards-p2", AFTER_P2, _related("ja", "kanren", cards=True)),
        v(
            "related-en-nolink-end",
            CONTAINER_END,
            _related("en", "more-box", cards=True, link=False),
        ),
    ]


def _comments(rng: random.Random, lang: str, n: int, named: bool) -> str:
    pool = COMMENTS[lang]
    items = []
    for k in range(n):
        text = pool[k % len(pool)]
        if k >= len(pool):
            text = pool[(k * 3) % len(pool)] + " " + pool[(k * 5 + 1) % len(pool)]
        who = NAMES[rng.randrange(len(NAMES))]
        items.append(
            f"<li class='{'comment' if named else 'e'}'><div class='hd'><b>{who}</b> "
            f"<span>{AGO[lang]}</span></div><p>{text}</p>"
            f"<div class='ft'><a href='#r{k}'>{REPLY[lang]}</a></div></li>"
        )
    head = {"en": "Comments", "de": "Kommentare", "fr": "Réactions", "ja": "コメント"}[lang]
    box = "section id='comments' class='comments-area'" if named else "section class='s-x'"
    return f"<{box}><h2>{n} {head}</h2><ol>{''.join(items)}</ol></{box.split()[0]}>"


def _trivia(lang: str, as_list: bool, n: int) -> str:
    pool = TRIVIA[lang]
    lines = [pool[k % len(pool)] for k in range(n)]
    head = {"en": ("Trivia", "Behind the scenes"), "de": ("Wissenswertes", "Hinter den Kulissen")}
    if as_list:
        return f"<h2>{head[lang][0]}</h2><ul>{''.join(f'<li>{x}</li>' for x in lines)}</ul>"
    return f"<div class='sec'><h2>{head[lang][1]}</h2>{''.join(f'<p>{x}</p>' for x in lines)}</div>"


def _section_variants() -> list[Variant]:
    return [
        Variant(
            "section", "comments-en-named", AFTER_CONTAINER, lambda r: _comments(r, "en", 16, True)
        ),
        Variant(
            "section", "comments-de-plain", AFTER_CONTAINER, lambda r: _comments(r, "de", 14, False)
        ),
        Variant(
            "section", "comments-fr-plain", AFTER_CONTAINER, lambda r: _comments(r, "fr", 12, False)
        ),
        Variant(
            "section", "comments-ja-plain", AFTER_CONTAINER, lambda r: _comments(r, "ja", 10, False)
        ),
        Variant("section", "trivia-en-list", CONTAINER_END, lambda r: _trivia("en", True, 12)),
        Variant("section", "behind-de-paras", CONTAINER_END, lambda r: _trivia("de", False, 10)),
        Variant(
            "section", "trivia-de-list-after", AFTER_CONTAINER, lambda r: _trivia("de", True, 12)
        ),
    ]


def _wall(lang: str, marked: bool) -> tuple[str, str]:
    bar, (ok, more), head, text, (login, register) = LOGIN[lang]
    if marked:
        cookie = (
            f"<div class='cc-window cc-banner' role='dialog' aria-label='cookieconsent'>"
            f"<span>{bar} <a href='/privacy'>{more}</a></span><a class='cc-btn'>{ok}</a></div>"
        )
        wall = (
            f"<div class='paywall'><h2>{head}</h2><p>{text}</p>"
            f"<a href='/login'>{login}</a> <a href='/register'>{register}</a></div>"
        )
    else:
        cookie = f"<div class='bar'><p>{bar}</p><button>{ok}</button><a href='/p'>{more}</a></div>"
        wall = (
            f"<div class='gate'><div class='gate-in'><h2>{head}</h2><p>{text}</p>"
            f"<button>{login}</button><a href='/register'>{register}</a></div></div>"
        )
    return cookie, wall


def _wall_variants() -> list[Variant]:
    out = []
    for lang, marked in (("en", True), ("de", False), ("fr", False), ("ja", True)):
        cookie, wall = _wall(lang, marked)
        tag = "marked" if marked else "plain"
        out.append(Variant("wall", f"cookiebar-{lang}-{tag}-end", END, lambda r, c=cookie: c))
        out.append(
            Variant("wall", f"loginwall-{lang}-{tag}-in", CONTAINER_END, lambda r, w=wall: w)
        )
    return out


def variants() -> list[Variant]:
    return [
        *_consent_variants(),
        *_script_variants(),
        *_teaser_variants(),
        *_section_variants(),
        *_wall_variants(),
    ]


# -- the pages ---------------------------------------------------------------------------

_HOLE = "<wfstress{}></wfstress{}>"


def _container(
    body: Any, ref: Counter[tuple[str, ...]], measure: Callable[[str], Counter[tuple[str, ...]]]
) -> tuple[Any, Any]:
    """The article's container: the deepest block that holds 70 % of the page's text
    found in the reference (paragraphs whose shingles are in it), and the child of it
    that holds the second such paragraph; (None, None) when no paragraph is found."""
    found: list[tuple[Any, int]] = []
    for el in body.iter("p", "li", "div", "h2", "h3", "blockquote", "pre", "td"):
        if el.tag in ("div", "td") and len(el):
            continue
        text = el.text_content()
        if len(text) < 40:
            continue
        got = measure(text)
        n = sum(got.values())
        if n and sum((got & ref).values()) >= 0.8 * n:
            found.append((el, len(text)))
    if not found:
        return None, None
    held: dict[Any, int] = {}
    depth: dict[Any, int] = {}
    for el, n in found:
        for d, anc in enumerate(reversed(list(el.iterancestors()))):
            held[anc] = held.get(anc, 0) + n
            depth[anc] = d
    total = sum(n for _, n in found)
    container = max((a for a in held if held[a] >= 0.7 * total), key=depth.__getitem__)
    second = found[1][0] if len(found) > 1 else found[0][0]
    child = second
    while child.getparent() is not None and child.getparent() is not container:
        child = child.getparent()
    return container, (child if child.getparent() is container else None)


def prepare(
    page: str, truth: str, measure: Callable[[str], Counter[tuple[str, ...]]]
) -> tuple[str, bool]:
    """The page written back with a placeholder at each place, and whether the article's
    container was found (else the container places stay empty)."""
    from lxml import etree
    from lxml import html as lxml_html

    root = lxml_html.document_fromstring(page)
    body = root.find("body")
    if body is None:
        body = root
    holes = [etree.Element(f"wfstress{i}") for i in range(PLACES)]
    body.insert(0, holes[START])
    body.append(holes[END])
    container, anchor = _container(body, measure(truth), measure)
    if container is not None:
        if anchor is not None:
            anchor.addnext(holes[AFTER_P2])
            # addnext moves the anchor's tail after the hole: put it back before it.
            holes[AFTER_P2].tail, anchor.tail = anchor.tail, holes[AFTER_P2].tail
        else:
            container.append(holes[AFTER_P2])
        container.append(holes[CONTAINER_END])
        if container.getparent() is not None and container is not body:
            container.addnext(holes[AFTER_CONTAINER])
    return lxml_html.tostring(root, encoding="unicode", method="html"), container is not None


def fill(prepared: str, place: int, html: str) -> str:
    out = prepared
    for i in range(PLACES):
        out = out.replace(_HOLE.format(i, i), html if i == place else "")
    return out


def _f1(p: float | None, r: float | None) -> float:
    p, r = p or 0.0, r or 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def tuning_pages() -> list[tuple[str, str, str, Callable[[str], Counter]]]:
    """(set:name, page, reference, measure) for the tuning parts of both sets."""
    out = []
    if (bench.DATA / "ground-truth.json").is_file():
        ids, pages, truths = bench.load()
        out += [
            (f"sh:{k}", p, t, bench.shingles)
            for k, p, t in zip(ids, pages, truths, strict=True)
            if not bench.held_out(k) and t
        ]
    else:
        print(f"stress_kinds: scrapinghub skipped: no set at {bench.DATA}")
    if (bench.READABILITY / "pages").is_dir():
        ids, pages, refs = bench.load_readability()
        out += [
            (f"rd:{k}", p, t, bench.cjk_shingles)
            for k, p, t in zip(ids, pages, refs, strict=True)
            if not bench.held_out(k) and t
        ]
    else:
        print(f"stress_kinds: readability skipped: no set at {bench.READABILITY}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--details", action="store_true", help="per variant, and worst pages")
    parser.add_argument("--kind", action="append", help="only this kind (repeatable)")
    parser.add_argument("--json", help="write every (page, variant, F1) to this file")
    args = parser.parse_args(argv)
    from wf.extract import extract_text

    pages = tuning_pages()
    if not pages:
        print("stress_kinds: skipped: no extract-bench data (set WF_EXTRACT_BENCH*)")
        return 0
    chosen = [v for v in variants() if not args.kind or v.kind in args.kind]
    start = time.process_time()
    base_scores: list[tuple[float | None, float | None]] = []
    rows: dict[str, list[tuple[str, float, float, tuple[float | None, float | None]]]] = {}
    lost: dict[str, set[str]] = {}  # variant -> pages whose recall dropped
    found = 0
    for key, page, truth, measure in pages:
        prepared, has_container = prepare(page, truth, measure)
        found += has_container
        base = bench.page_scores(truth, extract_text(fill(prepared, -1, "")), measure)
        base_scores.append(base)
        rng = random.Random(key)
        for v in chosen:
            if v.place >= AFTER_P2 and not has_container:
                continue
            got = bench.page_scores(
                truth, extract_text(fill(prepared, v.place, v.make(rng))), measure
            )
            rows.setdefault(v.name, []).append((key, _f1(*base), _f1(*got), got))
            if (base[1] or 0.0) - (got[1] or 0.0) > DROP:
                lost.setdefault(v.name, set()).add(key)
    seconds = time.process_time() - start
    p, r, f1 = bench.summarise(base_scores)
    base_of = {key: score for (key, *_), score in zip(pages, base_scores, strict=True)}
    print(
        f"stress_kinds: {len(pages)} tuning pages (scrapinghub and readability), "
        f"{found} with the article's container found; {seconds:.0f} s CPU"
    )
    print(f"uninjected: P {p:.3f} R {r:.3f} F1 {f1:.4f}")
    print(
        f"{'kind':<10} {'variants':>8} {'pairs':>6} {'F1 base':>8} {'F1 inj':>8} {'drops':>6}"
        f" {'pages':>6} {'lost':>6}"
    )
    kinds: dict[str, list[str]] = {}
    for v in chosen:
        kinds.setdefault(v.kind, []).append(v.name)
    for kind, names in kinds.items():
        pairs = [row for name in names for row in rows.get(name, [])]
        base_f1 = bench.summarise([base_of[row[0]] for row in pairs])[2] if pairs else 0.0
        inj_f1 = bench.summarise([row[3] for row in pairs])[2] if pairs else 0.0
        drops = [row for row in pairs if row[1] - row[2] > DROP]
        n_lost = sum(len(lost.get(name, ())) for name in names)
        print(
            f"{kind:<10} {len(names):>8} {len(pairs):>6} {base_f1:>8.4f} {inj_f1:>8.4f}"
            f" {len(drops):>6} {len({row[0] for row in drops}):>6} {n_lost:>6}"
        )
    print(
        f"drops: (page, variant) pairs whose F1 fell by more than {DROP}; pages: how many "
        f"pages those are; lost: pairs whose recall fell by more than {DROP} (the article "
        "lost, not boilerplate kept)"
    )
    if args.details:
        print()
        print(f"{'variant':<28} {'pairs':>6} {'F1 inj':>8} {'drops':>6} {'lost':>6}  worst pages")
        for v in chosen:
            pairs = rows.get(v.name, [])
            drops = sorted(
                (row for row in pairs if row[1] - row[2] > DROP), key=lambda r: r[2] - r[1]
            )
            inj = bench.summarise([row[3] for row in pairs])[2] if pairs else 0.0
            worst = ", ".join(f"{k[:24]}({b:.2f}>{a:.2f})" for k, b, a, _ in drops[:4])
            n_lost = len(lost.get(v.name, ()))
            print(f"{v.name:<28} {len(pairs):>6} {inj:>8.4f} {len(drops):>6} {n_lost:>6}  {worst}")
    if args.json:
        Path(args.json).write_text(
            json.dumps({name: [(k, b, a) for k, b, a, _ in rs] for name, rs in rows.items()}),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
