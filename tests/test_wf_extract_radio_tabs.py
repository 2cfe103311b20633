"""wf/extract/radio_tabs.py on pages of our own: tabs drawn with CSS alone (a radio button
and a <label> per tab), MkDocs Material's and VitePress's, each label put at the head of
its panel; tabs that are not code's, and labels of no one group, left as they were."""

from __future__ import annotations

from wf.extract import extract

URL = "https://docs.example.org/guide/install/"
LEAD = (
    "<h1>Install</h1><p>The gearbox installs from the package index on every platform it "
    "supports, in one command that fetches it and everything it needs to turn.</p>"
)
TAIL = (
    "<p>Once installed, the gearbox command is on the path and prints its version when "
    "asked, which is the quickest way to check that the install went through.</p>"
)


def _page(tabs: str) -> str:
    return (
        "<html><head><title>Install</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<main><article>{LEAD}{tabs}{TAIL}</article></main></body></html>"
    )


def _code(line: str) -> str:
    return f"<div class='highlight'><pre><code>{line}</code></pre></div>"


def test_a_row_of_labels_heads_the_panels_after_it() -> None:
    # MkDocs Material's content tabs: the buttons, the row of labels, the panels in order.
    tabs = (
        "<div class='tabbed-set tabbed-alternate'>"
        "<input checked id='t1' name='g' type='radio'><input id='t2' name='g' type='radio'>"
        "<div class='tabbed-labels'><label for='t1'>Linux</label><label for='t2'>Windows"
        "</label></div><div class='tabbed-content'>"
        f"<div class='tabbed-block'>{_code('pip install gearbox')}</div>"
        f"<div class='tabbed-block'>{_code('py -m pip install gearbox')}</div></div></div>"
    )
    text = extract(_page(tabs), url=URL).text
    assert "Linux\n\n```\npip install gearbox" in text
    assert "Windows\n\n```\npy -m pip install gearbox" in text


def test_labels_beside_their_buttons_head_the_blocks() -> None:
    # VitePress's code group: buttons and labels in one row, the blocks in the box after.
    tabs = (
        "<div class='vp-code-group'><div class='tabs'>"
        "<input type='radio' name='grp' id='a' checked><label for='a'>npm</label>"
        "<input type='radio' name='grp' id='b'><label for='b'>Yarn</label></div>"
        f"<div class='blocks'><div class='active'>{_code('npm add gearbox')}</div>"
        f"<div>{_code('yarn add gearbox')}</div></div></div>"
    )
    text = extract(_page(tabs), url=URL).text
    assert "npm\n\n```\nnpm add gearbox" in text
    assert "Yarn\n\n```\nyarn add gearbox" in text


def test_each_label_before_its_panel_heads_it() -> None:
    # pymdownx.tabbed's first layout: button, label and panel, tab after tab.
    tabs = (
        "<div class='tabbed-set'>"
        "<input checked id='x1' name='s' type='radio'><label for='x1'>macOS</label>"
        f"<div class='tabbed-content'>{_code('brew install gearbox')}</div>"
        "<input id='x2' name='s' type='radio'><label for='x2'>Debian</label>"
        f"<div class='tabbed-content'>{_code('apt install gearbox')}</div></div>"
    )
    text = extract(_page(tabs), url=URL).text
    assert "macOS\n\n```\nbrew install gearbox" in text
    assert "Debian\n\n```\napt install gearbox" in text


def test_tabs_of_no_code_and_labels_of_no_group_stay_out() -> None:
    # arXiv's tools under an abstract are radio tabs of links and switches: the page's
    # chrome. Labels for buttons of two groups (or for none) are a form's.
    prose = (
        "<div class='tabs'><input type='radio' name='t' id='p1' checked>"
        "<label for='p1'>Bibliographic Tools</label><div class='tab'><p>Explorer</p></div>"
        "<input type='radio' name='t' id='p2'><label for='p2'>Demos</label>"
        "<div class='tab'><p>Replicate</p></div></div>"
    )
    text = extract(_page(prose), url=URL).text
    assert "Bibliographic Tools" not in text and "Demos" not in text
    groups = (
        "<div class='tabs'><div class='row'><input type='radio' name='u' id='q1'>"
        "<label for='q1'>Linux</label><input type='radio' name='v' id='q2'>"
        "<label for='q2'>Windows</label></div>"
        f"<div class='blocks'><div>{_code('make')}</div><div>{_code('nmake')}</div></div></div>"
    )
    text = extract(_page(groups), url=URL).text
    assert "Linux" not in text and "Windows" not in text


def _aria(labels: list[str], panels: list[str]) -> str:
    tabs = "".join(
        f"<button role='tab' type='button' aria-controls='p{n}' aria-selected='{n == 0}'>"
        f"{label}</button>"
        for n, label in enumerate(labels)
    )
    boxes = "".join(
        f"<div role='tabpanel' id='p{n}'>{panel}</div>" for n, panel in enumerate(panels)
    )
    return f"<div class='code-group'><div role='tablist'>{tabs}</div><div>{boxes}</div></div>"


def test_tab_buttons_head_their_panels_of_code() -> None:
    # Headless UI's tabs (Mintlify's code group): buttons, which cleaning drops, each
    # naming its panel. Two words are no accordion's question, printed twice.
    tabs = _aria(["npm", "Yarn Berry"], [_code("npm i gearbox"), _code("yarn add gearbox")])
    text = extract(_page(tabs), url=URL).text
    assert "npm\n\n```\nnpm i gearbox" in text
    assert "Yarn Berry\n\n```\nyarn add gearbox" in text
    assert text.count("Yarn Berry") == 1


def test_an_icons_title_and_an_empty_panel_take_no_label() -> None:
    # A tab drawn as a logo: its <svg>'s <title> is no label a reader sees. A panel the
    # scripts fill when its tab is clicked is empty: its label would stand alone.
    logo = "<svg role='presentation'><title>{} logo</title><path d='M0 0'/></svg>"
    tabs = _aria(
        [logo.format("JavaScript"), logo.format("Python"), "Ruby"],
        [_code("client.send()"), _code("client.send()"), ""],
    )
    text = extract(_page(tabs), url=URL).text
    assert "client.send()" in text
    assert "logo" not in text and "Ruby" not in text


def test_a_manuals_tabs_of_prose_head_their_panels() -> None:
    # sphinx-design's tabs, one per platform, of prose: on a page a manual's generator
    # made, their labels head them; elsewhere tabs of prose stay as they were (arXiv's).
    tabs = (
        "<div class='sd-tab-set'><input checked id='s0' name='set' type='radio'>"
        "<label class='sd-tab-label' for='s0'>Linux</label><div class='sd-tab-content'>"
        "<p>Use the package manager of your distribution.</p></div>"
        "<input id='s1' name='set' type='radio'><label class='sd-tab-label' for='s1'>macOS"
        "</label><div class='sd-tab-content'><p>Use Homebrew.</p></div></div>"
    )
    manual = _page(tabs).replace(
        "</head>",
        "<meta name='generator' content='Docutils'>"
        "<script src='_static/documentation_options.js'></script></head>",
    )
    text = extract(manual, url=URL).text
    assert "Linux\n\nUse the package manager" in text and "macOS\n\nUse Homebrew." in text
    text = extract(_page(tabs), url=URL).text
    assert "Use Homebrew." in text and "macOS" not in text


def test_a_polls_choices_are_no_tabs() -> None:
    # A form's radio buttons, none checked, before two paragraphs: on a manual's page
    # the choices' labels were read as tabs heading each paragraph.
    poll = (
        "<div class='poll'><p>Which platform do you use?</p><div class='choices'>"
        "<input type='radio' name='os' id='o1'><input type='radio' name='os' id='o2'>"
        "<label for='o1'>Linux</label><label for='o2'>Windows</label></div>"
        "<div><p>Import the gearbox and call its setup first, before anything else.</p>"
        "<p>Setup reads the configuration file and checks the compiler.</p></div></div>"
    )
    manual = _page(poll).replace("</head>", "<meta name='generator' content='mkdocs-1.5'></head>")
    text = extract(manual, url=URL).text
    assert "Import the gearbox" in text
    assert "Linux" not in text and "Windows" not in text


def test_a_control_character_in_a_label_or_a_panel_is_dropped() -> None:
    # A page's `&#3;` in a tab's label or before its panel's block: lxml refuses to set
    # it as a text, and the extraction failed.
    tabs = (
        "<div class='tabbed-set'><input checked id='x1' name='s' type='radio'>"
        "<label for='x1'>macOS&#3;</label>"
        f"<div class='tabbed-content'>&#3;{_code('brew install gearbox')}</div>"
        "<input id='x2' name='s' type='radio'><label for='x2'>Debian</label>"
        f"<div class='tabbed-content'>{_code('apt install gearbox')}</div></div>"
    )
    found = extract(_page(tabs), url=URL)
    assert not any("failed" in note for note in found.notes)
    assert "macOS\n\n```\nbrew install gearbox" in found.text
