"""The web game in a real browser: headless Chromium (Debian's chromium and chromium-driver)
driven by Selenium plays deal 42 from start to finish through the page, with the mouse and
the keyboard, asks a hint and a "why not", undoes a move, and checks the final score and the
proven optimum the page shows against solve(); then a co-op deal the same way, giving cards
to the partner with a fight mode ("4Cw>") by both the mouse and the keyboard.  The page opens
on a game without anything pressed (today's daily, its 64-bit deal number kept exactly, or a
numbered deal said so), shows the deal in its address, and at phone width (390 px) keeps the
room's four cards in one row with no label over a card (screenshots go to $TMPDIR).

Outside CI a machine without Chromium skips it; under CI (CI=true, as .ci/run runs) a missing
browser is a failure, never a silent skip: .ci/run installs it.
"""
import json
import os
import urllib.request

from browser import By, EC, Keys, WebDriverWait
from scoundrel_solver import Rules, State, deal, format_line, parse_line, solve
from scoundrel_solver.scoundrel.notation import resolved_line


def wait(driver, seconds=30):
    return WebDriverWait(driver, seconds, poll_frequency=0.05)


def line_shown(driver) -> str:
    return driver.find_element(By.ID, "line").get_attribute("data-line")


def idle(driver):
    wait(driver).until(lambda d: "busy" not in (d.find_element(By.TAG_NAME, "body").get_attribute("class") or ""))


def no_error(driver):
    status = driver.find_element(By.ID, "status")
    assert "error" not in (status.get_attribute("class") or ""), status.text


def play(driver, action: str, by_key: bool, expect: str) -> None:
    """One move through the page: the way to take it (w, b, >) then the card, by the
    mouse (a click on the card) or the keyboard (its position 1-4 in the room)."""
    body = driver.find_element(By.TAG_NAME, "body")
    if action == "avoid":
        if by_key:
            body.send_keys("a")
        else:
            driver.find_element(By.ID, "avoid").click()
    else:
        card, how = action[:2], action[2:]
        for mode in how:        # "w" or "b", and ">" (give, co-op): "8Cw>" is both
            if by_key:
                body.send_keys({"w": "w", "b": "b", ">": "g"}[mode])
            else:
                driver.find_element(By.CSS_SELECTOR, f'.mode[data-mode="{mode}"]').click()
        if by_key:
            cards = [c.get_attribute("data-card") for c in driver.find_elements(By.CSS_SELECTOR, "#room .card")]
            body.send_keys(str(cards.index(card) + 1))
        else:
            driver.find_element(By.CSS_SELECTOR, f'#room .card[data-card="{card}"]').click()
    wait(driver).until(lambda d: line_shown(d) == expect)
    idle(driver)
    no_error(driver)


def test_play_deal_42_to_the_end(server, browser):
    best = solve(seed=42)
    assert best.exact
    browser.get(server.url + "/?seed=42")
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, '#room .card[data-card="4H"]')))
    assert [c.get_attribute("data-card") for c in browser.find_elements(By.CSS_SELECTOR, "#room .card")] == \
        ["4H", "3H", "5C", "5D"]
    assert browser.find_element(By.CSS_SELECTOR, '#heroes .hero[data-hero="1"] .hp').text == "20"

    # a hint at the start: the best action keeps the proven optimum
    browser.find_element(By.ID, "hint").click()
    wait(browser).until(lambda d: d.find_element(By.ID, "hint-exact").get_attribute("data-best"))
    best_action = browser.find_element(By.ID, "hint-exact").get_attribute("data-best")
    row = browser.find_element(By.CSS_SELECTOR, f'#hint-exact tr[data-action="{best_action}"]')
    assert row.find_elements(By.TAG_NAME, "td")[1].text == f"+{best.score}"
    # "why not" another action: the best line after it, with its score
    rows = browser.find_elements(By.CSS_SELECTOR, "#hint-exact tr[data-action]")
    other = next(r for r in rows if r.get_attribute("data-action") != best_action)
    other_score = other.find_elements(By.TAG_NAME, "td")[1].text
    other.find_element(By.CSS_SELECTOR, "button.why").click()
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#why p[data-score]"))
    assert int(browser.find_element(By.CSS_SELECTOR, "#why p").get_attribute("data-score")) == int(other_score)

    rooms = [[str(a) for a in room] for room in best.line]
    played = []
    moves = 0
    for r, room in enumerate(rooms):
        for i, action in enumerate(room):
            expect = format_line([*rooms[:r], room[:i + 1]])
            play(browser, action, by_key=moves % 2 == 1, expect=expect)
            moves += 1
            if moves == 2:      # take the second move back (the keyboard's u), then play it again
                browser.find_element(By.TAG_NAME, "body").send_keys("u")
                wait(browser).until(lambda d: line_shown(d) == format_line([room[:1]]))
                idle(browser)
                browser.find_element(By.ID, "undo").click()     # and the first, with the mouse
                wait(browser).until(lambda d: line_shown(d) == "")
                idle(browser)
                play(browser, room[0], by_key=False, expect=format_line([room[:1]]))
                play(browser, action, by_key=True, expect=expect)
        played.append(room)

    # the end: the score against the proven optimum, the optimal line room by room
    final = wait(browser, 60).until(EC.visibility_of_element_located((By.ID, "final-score")))
    assert int(final.get_attribute("data-score")) == best.score
    wait(browser, 60).until(lambda d: d.find_element(By.ID, "optimum").get_attribute("data-score"))
    optimum = browser.find_element(By.ID, "optimum")
    assert int(optimum.get_attribute("data-score")) == best.score
    assert optimum.get_attribute("data-exact") == "true"
    assert "You won" in browser.find_element(By.ID, "verdict").text
    wait(browser).until(lambda d: "room 1 of" in d.find_element(By.ID, "opt-where").text)
    browser.find_element(By.TAG_NAME, "body").send_keys("]")
    wait(browser).until(lambda d: "room 2 of" in d.find_element(By.ID, "opt-where").text)
    assert browser.find_elements(By.CSS_SELECTOR, "#opt-room .card")
    browser.save_screenshot(os.path.join(os.environ.get("TMPDIR", "/tmp"), "scoundrel-browser-end.png"))


def test_an_illegal_move_is_told_and_changes_nothing(server, browser):
    browser.get(server.url + "/?seed=42")
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, '#room .card[data-card="5C"]')))
    box = browser.find_element(By.ID, "move")
    box.send_keys("QS\n")
    wait(browser).until(lambda d: "error" in (d.find_element(By.ID, "status").get_attribute("class") or ""))
    assert "QS" in browser.find_element(By.ID, "status").text
    assert line_shown(browser) == ""


def test_co_op_shows_both_heroes_and_the_give_move(server, browser):
    browser.get(server.url + "/?seed=42&mode=coop")
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, '#heroes .hero[data-hero="2"]')))
    assert browser.find_element(By.CSS_SELECTOR, '.mode[data-mode=">"]').is_displayed()
    assert "(leads)" in browser.find_element(By.CSS_SELECTOR, '#heroes .hero[data-hero="1"]').text
    room = [c.get_attribute("data-card") for c in browser.find_elements(By.CSS_SELECTOR, "#room .card")]
    give = next(c for c in room if c.endswith("C") or c.endswith("S"))   # a monster given to the partner
    start = State.new(deal(42, Rules(mode="coop")), Rules(mode="coop"))
    play(browser, give + ">", by_key=True, expect=format_line(resolved_line(start, parse_line(give + ">"))))


def test_play_a_coop_deal_to_the_end(server, browser):
    rules = Rules(mode="coop")
    best = solve(seed=2, rules=rules)
    assert best.exact and best.won
    moves_of = [str(a) for room in best.line for a in room]
    assert any(m.endswith("w>") for m in moves_of) and any(m.endswith(">") and m[2] == ">" for m in moves_of)
    browser.get(server.url + "/?seed=2&mode=coop")
    first = str(deal(2, rules)[0])
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, f'#room .card[data-card="{first}"]')))
    assert browser.find_element(By.CSS_SELECTOR, '#heroes .hero[data-hero="2"] .hp').text == "20"

    # a hint at the start: a best action, and a row for every legal action
    browser.find_element(By.TAG_NAME, "body").send_keys("h")
    wait(browser, 60).until(lambda d: d.find_element(By.ID, "hint-exact").get_attribute("data-best"))
    legal = State.new(deal(2, rules), rules).legal_actions()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#hint-exact tr[data-action]")) == len(legal)

    # a fight mode and giving combine ("8Cw>", "8Cb>"); Escape clears both
    body = browser.find_element(By.TAG_NAME, "body")

    def pressed():
        return {b.get_attribute("data-mode") for b in browser.find_elements(By.CSS_SELECTOR, ".mode.on")}
    body.send_keys("b")
    browser.find_element(By.CSS_SELECTOR, '.mode[data-mode=">"]').click()
    assert pressed() == {"b", ">"}
    body.send_keys("w")
    assert pressed() == {"w", ">"}
    body.send_keys(Keys.ESCAPE)
    assert pressed() == {""}

    rooms = [[str(a) for a in room] for room in best.line]
    moves = 0
    for r, room in enumerate(rooms):
        for i, action in enumerate(room):
            play(browser, action, by_key=moves % 2 == 0, expect=format_line([*rooms[:r], room[:i + 1]]))
            moves += 1
    final = wait(browser, 60).until(EC.visibility_of_element_located((By.ID, "final-score")))
    assert int(final.get_attribute("data-score")) == best.score
    wait(browser, 120).until(lambda d: d.find_element(By.ID, "optimum").get_attribute("data-score"))
    optimum = browser.find_element(By.ID, "optimum")
    assert int(optimum.get_attribute("data-score")) == best.score and optimum.get_attribute("data-exact") == "true"
    assert "You won" in browser.find_element(By.ID, "verdict").text


def room_shown(driver) -> list:
    return [c.get_attribute("data-card") for c in driver.find_elements(By.CSS_SELECTOR, "#room .card")]


def shot(driver, name: str) -> None:
    driver.save_screenshot(os.path.join(os.environ.get("TMPDIR", "/tmp"), f"scoundrel-{name}.png"))


def test_the_page_opens_on_a_game(server, browser):
    """Nothing pressed: today's daily (or, if it does not come within the page's wait, a
    numbered deal, said so), with its room of cards, and the game in the address."""
    browser.get(server.url + "/")
    wait(browser, 60).until(lambda d: len(room_shown(d)) == 4)
    idle(browser)
    no_error(browser)
    status = browser.find_element(By.ID, "status").text
    title = browser.find_element(By.ID, "title").text
    seed = int(title.split()[1])
    if "instead" in status:         # the daily was slow: a numbered deal, told on the page
        assert f"deal {seed} instead" in status
        assert f"seed={seed}" in browser.current_url
    else:
        assert status.startswith(f"Daily challenge: deal {seed}")
        with urllib.request.urlopen(server.url + "/api/daily?mode=solo", timeout=30) as r:
            assert json.load(r)["seed"] == seed
        assert "daily=" in browser.current_url
    # the deal number kept exactly (a daily's is past 2^53): a move plays on the same deal
    rules = Rules()
    start = State.new(deal(seed, rules), rules)
    assert room_shown(browser) == [str(c) for c in deal(seed, rules)[:4]]
    card = room_shown(browser)[0]
    play(browser, card, by_key=False, expect=format_line(resolved_line(start, parse_line(card))))
    assert browser.find_element(By.ID, "title").text.startswith(f"Deal {seed} ·")
    shot(browser, "open-desktop")


def test_the_deal_in_the_address_is_the_one_shown(server, browser):
    rules = Rules(mode="coop")
    browser.get(server.url + "/?seed=7&mode=coop")
    first = [str(c) for c in deal(7, rules)[:4]]
    wait(browser).until(lambda d: room_shown(d) == first)
    assert browser.find_element(By.ID, "title").text.startswith("Deal 7 · co-op")
    assert browser.find_element(By.ID, "mode").get_attribute("value") == "coop"
    browser.get(server.url + "/?seed=42")
    wait(browser).until(lambda d: room_shown(d) == ["4H", "3H", "5C", "5D"])
    assert browser.find_element(By.ID, "title").text.startswith("Deal 42 · solo")


def test_at_phone_width_the_room_is_one_row(server, browser):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        for url in ("/?seed=42", "/?seed=7&mode=coop"):
            browser.get(server.url + url)
            wait(browser).until(lambda d: len(room_shown(d)) == 4)
            idle(browser)
            assert browser.execute_script("return window.innerWidth") == 390
            cards = [c.rect for c in browser.find_elements(By.CSS_SELECTOR, "#room .card")]
            labels = [r.rect for r in browser.find_elements(By.CSS_SELECTOR, "#room .card .role")]
            assert len({round(c["y"]) for c in cards}) == 1, cards          # one row
            assert all(c["x"] >= 0 and c["x"] + c["width"] <= 390 for c in cards), cards
            assert len(labels) == 4

            def overlap(a, b):
                return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and
                        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])
            assert not [(l, c) for l in labels for c in cards if overlap(l, c)]
            assert not [(a, b) for i, a in enumerate(labels) for b in labels[i + 1:] if overlap(a, b)]
            shot(browser, "phone" + ("-coop" if "coop" in url else ""))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
