"""regelmotor play: a scripted terminal session (input from a pipe) plays whole deals against three bots."""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from regelmotor.cli import main
from regelmotor.records import read_record, replay


def session(
    tmp_path: Path, lines: list[str], ruleset: str = "standard", *options: str
) -> subprocess.CompletedProcess[str]:
    """``regelmotor play`` in ``tmp_path``, its input a pipe of ``lines`` (no terminal), in this process (a
    new one costs a second of a core to start; the tests that need a process of its own start one)."""
    tmp_path.mkdir(exist_ok=True)
    args = ["play", ruleset, "--seed", "5", "--record", str(tmp_path / "spil.json"), *options]
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        patch.chdir(tmp_path)
        patch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
        code = main(args)
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_a_scripted_session_plays_a_whole_deal_and_saves_a_replayable_record(tmp_path: Path) -> None:
    result = session(tmp_path, ["1"] * 40 + ["quit"])
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "=== Spil 1:" in out and "Point: " in out and "Stilling: " in out and "Farvel." in out
    record = tmp_path / "spil-1.json"
    assert main(["replay", str(record), "--json"]) == 0
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["result"]["phase"] in ("finished", "redeal") and data["ruleset"] == "standard"


def test_illegal_input_is_refused_with_the_rule_and_changes_nothing(tmp_path: Path) -> None:
    result = session(tmp_path, ["accept", "?", "ZZ", "1"] + ["1"] * 40 + ["quit"])
    out = result.stdout
    assert result.returncode == 0
    assert "Ikke tilladt efter reglen auction: antag er ikke en melding, plads 1 kan give nu: pas, 7," in out
    assert "(? viser kilden)" in out
    assert "Kilde: 001_b88eb8000c0a2767.txt" in out  # the source on "?", not in every refusal
    assert '"ZZ" er ikke et træk her; skriv et træk fra listen (eller #nummer), eller hjælp' in out
    refused = json.loads((tmp_path / "spil-1.json").read_text(encoding="utf-8"))
    clean = session(tmp_path / "again", ["1"] * 41 + ["quit"])
    assert clean.returncode == 0
    again = json.loads((tmp_path / "again" / "spil-1.json").read_text(encoding="utf-8"))
    assert refused["actions"] == again["actions"]  # the refused inputs left no trace


def test_the_table_speaks_danish_pas_and_hjaelp_are_understood(tmp_path: Path) -> None:
    """The person types the table's words: "pas" passes and is said back as "pas", "hjælp" explains, and
    the bots' calls are said with their names and in the same words."""
    result = session(tmp_path, ["hjælp", "pas", "quit"])
    out = result.stdout
    assert result.returncode == 0
    assert "Skriv et træk som det står i listen (pas, 8, 8 vip, trumf ♠, makker A♥" in out
    assert "  du: pas\n" in out and "[#1] pas" in out
    assert "  plads 2 (Bot 1): " in out  # a person counts seats from 1


def test_the_tables_words_are_read_back_as_the_notation() -> None:
    from regelmotor.cards import parse_cards
    from regelmotor.engine.actions import Action, Verb, discard
    from regelmotor.phrases import in_notation
    from regelmotor.play import shown_action

    assert in_notation("pas") == "pass" and in_notation("Behold") == "keep"
    assert in_notation("trumf ♠") == "trump ♠" and in_notation("uden trumf") == "trump none"
    assert in_notation("makker A♥") == "call A♥" and in_notation("læg 2♠ 3♦") == "discard 2♠ 3♦"
    assert in_notation("intet fordækt") == "no fordækt" and in_notation("8 vip") == "8 vip"
    cards = discard(parse_cards("AS KH JK1"))
    assert shown_action(cards) == "læg A♠ K♥ joker 1" and shown_action(cards, "en") == "discard AS KH JK1"
    assert shown_action(Action(Verb.TRUMP, trump="H")) == "trumf ♥"
    assert shown_action(Action(Verb.DISCARD, hidden=3)) == "læg ? ? ?"


def test_melderen_og_makkeren_skal_tage_mindst_saa_mange_stik_and_the_table_says_whether_they_did() -> None:
    """001: "7 til 13 (almindelige) | Melderen og makkeren skal tage mindst så mange stik": each deal ends
    with a line saying whether the contract held, and the declarer's side's tricks."""
    import random

    from regelmotor.bots.heuristic import HeuristicBot
    from regelmotor.engine.game import Game
    from regelmotor.play import result_line

    from .conftest import rules_of

    rules = rules_of("standard")
    said = set()
    for seed in range(40):
        game = Game.from_seed(rules, seed, seed % 4)
        bots = [HeuristicBot(rules, random.Random(s)) for s in range(4)]
        while game.step is not None:
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(game.view(seat), game.legal))
        line = result_line(game)
        if game.bid is None or game.bid.level is None:
            continue
        assert line is not None
        side = game.tricks_won[game.declarers[0]] + (0 if game.partner is None else game.tricks_won[game.partner])
        held = side >= game.bid.level
        assert line == f"{game.contract}: {'holdt' if held else 'tabt'}, {side} stik til melderens side"
        said.add(held)
    assert said == {True, False}


def test_end_of_input_ends_cleanly(tmp_path: Path) -> None:
    result = session(tmp_path, ["1", "1"])
    assert result.returncode == 0 and "Farvel." in result.stdout and (tmp_path / "spil-1.json").exists()
    assert "Stilling efter 0 spil: Du 0, Bot 1 0, Bot 2 0, Bot 3 0" in result.stdout  # the standings, always


def test_a_bid_is_typed_as_itself_and_a_menu_item_with_a_hash(tmp_path: Path) -> None:
    """The table issue: typing 7 bids 7 (it used to pick menu item 7, which is 8); #2 is the second item."""
    result = session(tmp_path, ["7", "quit"])
    assert "  du: 7\n" in result.stdout
    result = session(tmp_path / "b", ["#2", "quit"])
    assert "  du: 7\n" in result.stdout  # [#1] pass  [#2] 7


def test_cards_are_shown_and_typed_in_one_notation() -> None:
    """The hand shows A♠, and A♠, ♠A, AS and as all name the ace of spades; jokers show as jokers."""
    from regelmotor.cards import parse_card, parse_cards
    from regelmotor.engine.actions import discard
    from regelmotor.play import shown, shown_action

    assert {parse_card(t) for t in ("A♠", "♠A", "AS", "as")} == {parse_card("AS")}
    assert parse_card("joker 2") == parse_card("JK2") and shown("JK2") == "joker 2"
    assert shown("TH") == "10♥" and parse_card(shown("TH")) == parse_card("TH")
    assert shown_action(discard(parse_cards("AS KH JK1")), "en") == "discard AS KH JK1"


def test_a_record_replays_from_any_folder(tmp_path: Path) -> None:
    club = tmp_path / "klub.yaml"
    club.write_text("extends: standard\nname: klub\ntitle: K\ndescription: K\nsource: K\n", encoding="utf-8")
    command = [sys.executable, "-m", "regelmotor", "play", "klub.yaml", "--seed", "5", "--record", "spil.json"]
    done = subprocess.run(command, input="1\nquit\n", capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "spil-1.json").read_text(encoding="utf-8"))
    assert record["ruleset"] == str(club)
    elsewhere = subprocess.run(
        [sys.executable, "-m", "regelmotor", "replay", str(tmp_path / "spil-1.json")],
        capture_output=True, text=True, cwd=tmp_path.parent, timeout=120,
    )  # fmt: skip
    assert elsewhere.returncode == 0, elsewhere.stderr


@pytest.mark.parametrize(
    ("ruleset", "house"), [("thorsen", "fordaekt"), ("whistklubben", "gaa-med"), ("standard", "kan-selv")]
)
def test_every_ruleset_plays_in_the_terminal(tmp_path: Path, ruleset: str, house: str) -> None:
    result = session(tmp_path, ["1"] * 45 + ["quit"], ruleset, "-H", house, "--seed", "3")
    assert result.returncode == 0 and "Stilling: " in result.stdout
    assert main(["replay", str(tmp_path / "spil-1.json")]) == 0


def test_gruppe2_plays_with_52_cards(tmp_path: Path) -> None:
    result = session(tmp_path, ["1"] * 40 + ["quit"], "gruppe2")
    assert result.returncode == 0 and "JK" not in result.stdout.split("Din hånd:")[1].splitlines()[0]


def test_ctrl_c_while_the_bots_play_ends_cleanly_and_saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from regelmotor.bots.heuristic import HeuristicBot
    from regelmotor.play import TerminalGame

    from .conftest import rules_of

    calls = 0
    original = HeuristicBot.choose

    def interrupted(self: HeuristicBot, view: object, legal: list[str]) -> str:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise KeyboardInterrupt  # Ctrl-C while a bot is thinking
        return original(self, view, legal)  # type: ignore[arg-type]

    monkeypatch.setattr(HeuristicBot, "choose", interrupted)
    out = io.StringIO()
    game = TerminalGame(
        rules_of("standard"),
        "standard",
        "standard",
        [],
        seed=5,
        seat=0,
        record=tmp_path / "s.json",
        read=lambda _: "1",
        out=out,
    )
    assert game.run() == 0
    assert "Farvel." in out.getvalue() and (tmp_path / "s-1.json").exists()


def test_the_terminal_game_against_expert_bots(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "regelmotor",
            "play",
            "standard",
            "--seed",
            "3",
            "--bots",
            "expert",
            "--record",
            "e.json",
        ],
        input="\n".join(["1"] * 40 + ["quit"]) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "=== Spil 1:" in result.stdout
    assert main(["replay", str(tmp_path / "e-1.json")]) == 0


def test_the_persons_points_follow_the_person_round_the_table(tmp_path: Path) -> None:
    """The table issue: the person keeps a chair while the deal passes round; each deal's points on the
    screen are what ``replay`` of that deal's record gives the person's seat, and the total adds them up."""
    answers = []
    for _ in range(4):
        answers += ["1"] * 45 + ["j"]
    result = session(tmp_path, [*answers, "quit"])
    assert result.returncode == 0, result.stderr
    seats = [int(s) - 1 for s in re.findall(r"du sidder på plads (\d)", result.stdout)]  # counted from 1
    shown = re.findall(r"Point: .*\bDu (-?\d+)", result.stdout)
    assert len(seats) >= 4 and len(set(seats)) > 1, "the deal passed round"
    total = 0
    for number, seat in enumerate(seats, start=1):
        record = read_record(tmp_path / f"spil-{number}.json")
        scores = replay(record).game.scores
        if scores is None:
            continue
        assert int(shown.pop(0)) == scores[seat], f"deal {number}: the person sat at {seat}"
        total += int(scores[seat])
    totals = re.findall(r"Stilling: .*\bDu (-?\d+)", result.stdout)
    assert totals and int(totals[-1]) == total


def test_after_a_deal_the_table_offers_its_analysis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue "Double-dummy analysis": "play and serve offer the analysis after each deal"."""
    from regelmotor import play
    from regelmotor.ruleset.compile import compile_rules
    from regelmotor.ruleset.load import load_ruleset

    monkeypatch.setattr(play, "TERMINAL_NODES", 100_000)
    monkeypatch.setattr(play, "TERMINAL_SECONDS", 5.0)
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        if prompt.startswith("Et spil til? [J/n, a"):
            return "a"
        if prompt.startswith("Et spil til?"):
            return "n" if any(p.startswith("Et spil til? [J/n, a") for p in asked) else "j"
        return "1"

    out = io.StringIO()
    rules = compile_rules(load_ruleset("standard"))
    game = play.TerminalGame(
        rules, "standard", "standard", [], seed=3, seat=0, record=tmp_path / "spil.json", read=read, out=out
    )
    assert game.run() == 0
    text = out.getvalue()
    assert "Analyse med åbne kort (dobbelt dummy): standard" in text
    assert "Stik 13:" in text and "Tabt i alt" in text


def test_a_person_at_a_real_terminal_plays_in_danish(tmp_path: Path) -> None:
    """The table issue: "Terminal tests through a pty with Danish input": hjælp, a bid, the cards laid away
    typed as the table shows them (2♠ 10♦ joker 1, not a menu of combinations), cards played as shown."""
    import os
    import pty
    import select

    main_fd, child_fd = pty.openpty()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "regelmotor",
            "play",
            "standard",
            "--seed",
            "1",
            "--record",
            str(tmp_path / "spil.json"),
        ],
        stdin=child_fd,
        stdout=child_fd,
        stderr=child_fd,
        cwd=tmp_path,
        close_fds=True,
    )
    os.close(child_fd)
    screen = ""
    answered: list[str] = []

    def until_prompt(timeout: float = 60.0) -> str:
        nonlocal screen
        start = len(screen)
        while True:
            ready, _, _ = select.select([main_fd], [], [], timeout)
            assert ready, f"no prompt: {screen[-500:]}"
            try:
                screen += os.read(main_fd, 65536).decode("utf-8", "replace")
            except OSError:  # the program ended
                return screen[start:]
            tail = screen.rstrip(" ")
            if tail.endswith(">") or tail.endswith("]"):
                return screen[start:]

    def answer(text: str) -> None:
        answered.append(text)
        os.write(main_fd, (text + "\n").encode("utf-8"))

    try:
        until_prompt()
        answer("hjælp")
        assert "Skriv et træk" in until_prompt()
        answer("9 gode")  # seed 1: the three bots pass, so the person declares and exchanges
        for _ in range(80):
            block = until_prompt()
            if "Et spil til?" in block:
                answer("n")
                break
            exchange = re.search(r"skriv de kort, du vil lægge, fx læg (.+)", block)
            if exchange:
                answer(exchange.group(1).strip())  # the cards alone, as shown
                continue
            offered = re.search(r"\[#1\] (\S+(?: \S+)?)", block)
            assert offered, block[-400:]
            answer(offered.group(1) if re.fullmatch(r"(10|[2-9JQKA])[♠♥♦♣]|joker \d", offered.group(1)) else "1")
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main_fd)
    assert "du: 9 gode" in screen
    assert re.search(r"du: læg \S+ \S+ \S+", screen), "the cards typed were not laid away"
    assert "er ikke et træk" not in screen, "a Danish word was refused"
    assert process.returncode == 0


def test_the_last_lines_of_a_deal_name_each_seat_once_and_as_in_the_deal(tmp_path: Path) -> None:
    """Issue 72: the line that ends a deal ("Stik: ...") read "du: 1, plads 2 (Bot 2): 0, plads 3 (Bot 3): 4,
    plads 4 (Du): 8": the person twice, and the bots of the next deal's seating. Every seat is named as it was
    named all through its deal."""
    answers = []
    for _ in range(3):
        answers += ["1"] * 45 + ["j"]
    result = session(tmp_path, [*answers, "quit"])
    assert result.returncode == 0, result.stderr
    deals = result.stdout.split("\n=== Spil ")[1:]
    ended = [deal for deal in deals if "\nStik: " in deal]
    assert len(ended) >= 2
    for deal in ended:
        named: dict[str, set[str]] = {}
        for seat, name in re.findall(r"plads (\d) \(([^)]+)\)", deal):
            named.setdefault(seat, set()).add(name)
        assert all(len(names) == 1 for names in named.values()), named  # one name a seat, all deal long
        last = deal.split("\nStik: ", 1)[1].splitlines()[0]
        assert last.count("du: ") == 1 and "(Du)" not in last, last
        in_last = dict(re.findall(r"plads (\d) \(([^)]+)\)", last))
        assert len(in_last) == 3 and len(set(in_last.values())) == 3, last
        assert all(named[seat] == {name} for seat, name in in_last.items()), (last, named)
