"""The Gobbit engine: dealing, turns, flips, applying rulings, ghosts, gorillas, the expert
variant, the end of the game, and the properties (cards conserved, replays exact)."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engines.errors import GameOver, IllegalMove, RulesError
from companion.games.gobbit.engine.cards import Card, Condition, parse_card, standard_deck
from companion.games.gobbit.engine.judge import Touch
from companion.games.gobbit.engine.notation import format_state, parse_state
from companion.games.gobbit.engine.rules import (
    BecameGhost,
    ConditionChanged,
    Deal,
    Dealt,
    DeckCardBuried,
    Discard,
    Finish,
    Flip,
    Flipped,
    FlippedOutOfTurn,
    GameEnded,
    GobbitWon,
    GorillaAttack,
    GorillaDiscarded,
    LeftGame,
    PileMoved,
    State,
    StrayDiscarded,
    Touches,
    all_cards,
    apply,
    card_counts,
    condition,
    dealt,
    deck_size,
    legal_actions,
    new_game,
    on_turn,
    replay,
    situation,
    undealt,
    winners,
)


def state(text: str) -> State:
    """A state from the notation; fields default to a plain game of seat 1's turn."""
    head, _, rest = text.partition("|")
    fields = dict(part.split("=", 1) for part in head.split())
    defaults = {"turn": "1", "rules": "-", "expert": "no", "gorilla": "-", "strays": "-",
                "ghosts": "-", "out": "-", "over": "no"}
    defaults.update(fields)
    if "/" in rest.rsplit("|", 1)[-1]:
        rest += " | -"  # no graveyard section given: no graveyard
    return parse_state(" ".join(f"{k}={v}" for k, v in defaults.items()) + " |" + rest)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in text.split(",")) if text != "-" else ()


def touches(*spec: str) -> Touches:
    out = []
    for s in spec:
        who, _, rest = s.partition(">")
        where, _, ms = rest.partition("@")
        out.append(Touch(int(who), where if where == "g" else int(where), float(ms)))
    return Touches(tuple(out))


# --- dealing --------------------------------------------------------------------------


def test_standard_deck_without_gorilla_rule_has_45_cards():
    assert len(standard_deck()) == 45
    assert len(standard_deck({"gorilla"})) == 48


@pytest.mark.parametrize("seats,sizes", [(2, [24, 24]), (3, [16, 16, 16]), (4, [12] * 4),
                                         (5, [10, 10, 10, 9, 9])])
def test_deal_is_as_even_as_possible(seats, sizes):
    g = new_game(seats, standard_deck({"gorilla"}))
    assert [len(d) for d in g.decks] == sizes
    assert all(p == () for p in g.piles) and g.graveyard == ()


def test_deal_goes_clockwise_from_the_first_player_each_card_on_top():
    deck = cards("Sb,Cb,Mb,Sr,Cr,Mr")
    g = new_game(3, deck, first=2)
    assert g.deck(2) == cards("Sr,Sb")  # first and fourth card, the later one on top
    assert g.deck(3) == cards("Cr,Cb")
    assert g.deck(1) == cards("Mr,Mb")
    assert g.turn == 2


@pytest.mark.parametrize("kwargs,fragment", [
    ({"seats": 1}, "2 to 8"), ({"seats": 9}, "2 to 8"), ({"seats": 3, "first": 4}, "first"),
    ({"seats": 3, "rules": ["magic"]}, "Unknown rule")])
def test_new_game_refuses_bad_set_ups(kwargs, fragment):
    seats = kwargs.pop("seats")
    with pytest.raises(RulesError, match=fragment):
        new_game(seats, standard_deck(), **kwargs)


def test_the_deal_action_deals_the_empty_table_as_new_game_deals_a_shuffled_list():
    table = undealt(3, 2, {"gorilla"}, True)
    assert not dealt(table) and legal_actions(table) == [] and deck_size(table) == 48
    assert parse_state(format_state(table)) == table
    order = tuple(reversed(range(48)))
    g, events = apply(table, Deal(order))
    deck = standard_deck({"gorilla"})
    assert g == new_game(3, [deck[i] for i in order], 2, {"gorilla"}, True)
    assert events == [Dealt(2, (16, 16, 16))] and dealt(g)
    assert g.deck(2)[-1] == deck[47]  # the first card dealt lies at the bottom of seat 2's deck


@pytest.mark.parametrize("seats,first,rules,fragment", [
    (1, 1, (), "2 to 8"), (3, 4, (), "first"), (3, 1, ("magic",), "Unknown rule")])
def test_an_empty_table_refuses_bad_set_ups(seats, first, rules, fragment):
    with pytest.raises(RulesError, match=fragment) as err:
        undealt(seats, first, rules)
    assert err.value.code == "setup"


def test_before_the_deal_only_a_deal_and_only_one():
    table = undealt(2)
    for action in (Flip(1), Finish(), Discard(1), touches("1>2@0")):
        with pytest.raises(IllegalMove, match="not dealt") as err:
            apply(table, action)
        assert err.value.code == "not-dealt"
    for order in (tuple(range(44)), (0,) * 45, (*range(44), 45)):
        with pytest.raises(IllegalMove, match="permutation of the 45 cards") as err:
            apply(table, Deal(order))
        assert err.value.code == "bad-deal"
    g, _ = apply(table, Deal(tuple(range(45))))
    with pytest.raises(IllegalMove, match="already dealt") as err:
        apply(g, Deal(tuple(range(45))))
    assert err.value.code == "dealt"


def test_a_table_whose_last_cards_went_to_the_graveyard_is_still_dealt():
    g = state("turn=1 | -/Mb | -/Sr | Cb")
    g, _ = apply(g, touches("1>g@0", "2>g@1"))
    assert g.over and dealt(g) and not any(g.decks) and not any(g.piles)


def test_new_game_needs_a_card_per_player():
    with pytest.raises(RulesError, match="fewer cards"):
        new_game(3, cards("Sb,Cb"))


# --- turns and flips ------------------------------------------------------------------------


def test_faq1_a_player_on_turn_flips_onto_the_cards_already_played():
    g = state("turn=1 | Mb,Cr/Sy | Cb/- | Sr/-")
    g, events = apply(g, Flip(1))
    assert g.pile(1) == cards("Sy,Mb") and g.top(1) == parse_card("Mb")
    assert events == [Flipped(1, parse_card("Mb"))]
    assert g.turn == 2  # the player on the left of the last one continues


def test_faq2_cards_under_the_top_are_inactive_but_go_with_the_pile():
    g = state("turn=3 | Cb/Sb | Mb/Cr,Sy,Cb | Mr/-")
    sit = situation(g)
    assert sit.tops[2] == parse_card("Cb")
    g, events = apply(g, touches("1>2@0"))
    assert PileMoved(2, 1, 3) in events
    assert g.deck(1) == cards("Cb,Cr,Sy,Cb")  # under the deck, the pile's bottom card first


def test_faq3_the_flipped_card_is_always_the_decks_top_card():
    assert [f.name for f in fields(Flip)] == ["seat"]  # nobody chooses (or peeks at) the card
    g = state("turn=1 | Cr,Sb,Mb/- | My/-")
    g, _ = apply(g, Flip(1))
    assert g.top(1) == parse_card("Cr")


def test_faq4_flipping_out_of_turn_puts_just_that_card_on_the_graveyard():
    g = state("turn=1 | Cr/- | Mb,Sy/Cb,Sr | My/-")
    g, events = apply(g, Flip(2))
    assert events == [FlippedOutOfTurn(2, parse_card("Mb"))]
    assert g.strays == {2} and g.top(2) == parse_card("Mb")
    assert legal_actions(g) == [Discard(2)]
    with pytest.raises(IllegalMove, match="out of turn"):
        apply(g, Flip(1))
    g, events = apply(g, Discard(2))
    assert events[0] == StrayDiscarded(2, parse_card("Mb"))
    assert g.pile(2) == cards("Cb,Sr") and g.graveyard == cards("Mb")
    assert g.strays == frozenset() and g.turn == 1


def test_faq4_if_the_stray_card_is_attacked_first_the_whole_pile_goes_to_the_attacker():
    g = state("turn=1 | Cb/- | Mb,Sy/Cr,Sr | Sy/-")
    g, _ = apply(g, Flip(1))  # seat 1 shows a blue chameleon
    g, _ = apply(g, Flip(3))  # out of turn: a yellow snake
    g, events = apply(g, touches("1>3@0"))  # not edible: a foul; nothing won
    assert g.strays == {3}
    g = state("turn=1 strays=2 | -/Cb | Sy/Cr,Sr,Mb | Sy/-")
    g, events = apply(g, touches("1>2@0"))
    assert PileMoved(2, 1, 3) in events
    assert g.strays == frozenset() and g.deck(1) == cards("Cr,Sr,Mb")
    assert Discard(2) not in legal_actions(g)


def test_faq5_a_player_without_a_deck_is_skipped_and_keeps_the_played_cards():
    g = state("turn=2 | Cr/- | -/Mb,Sy | My/-")
    assert on_turn(g) == 3
    g, _ = apply(g, Flip(3))
    assert g.pile(2) == cards("Mb,Sy") and g.turn == 1


def test_faq7_a_gorilla_as_the_last_card_is_lost():
    g = state("turn=1 rules=gorilla | G/Cb | Mb/- | Sr/-")
    g, events = apply(g, Flip(1))
    assert events[0] == GorillaDiscarded(1, parse_card("G"))
    assert g.gorilla is None and g.graveyard == cards("G") and g.deck(1) == ()
    assert g.pile(1) == cards("Cb") and g.turn == 2  # D8: still at the table with its pile


def test_faq7_without_a_pile_the_player_is_out():
    g = state("turn=1 | G/- | Mb/- | Sr/-")
    g, events = apply(g, Flip(1))
    assert LeftGame(1) in events and g.out == {1}


def test_faq9_the_winner_puts_the_pile_face_down_under_its_deck():
    g = state("turn=1 | Sb,Mr/Sb | Mb/Sy,Cb | -/-")
    g, events = apply(g, touches("1>2@0"))
    assert g.deck(1) == cards("Sb,Mr,Sy,Cb") and g.pile(2) == ()


def test_faq11_dying_breath_in_the_engine():
    g = state("turn=1 | Mr/Sr | Mb/Cr | Sy/- | Mb")
    g, events = apply(g, touches("1>g@0", "1>2@40"))
    assert PileMoved(1, "graveyard", 1) in events and PileMoved(2, 1, 1) in events
    assert g.deck(1) == cards("Mr,Cr") and g.graveyard == cards("Mb,Sr")


def test_faq14_foul_without_face_up_cards_buries_the_decks_top_card():
    g = state("turn=1 | Mr,Sy/- | Mb/Cb | Sy/-")
    g, events = apply(g, touches("1>2@0"))
    assert DeckCardBuried(1, parse_card("Mr")) in events
    assert g.deck(1) == cards("Sy") and g.graveyard == cards("Mr")


def test_d3_foul_without_any_cards_left_loses_nothing():
    g = state("turn=1 | -/- | Mb/Cb | Sy/My")
    g, events = apply(g, touches("1>2@0"))
    assert not any(isinstance(e, DeckCardBuried) for e in events)


def test_faq19_gobbit_everyone_takes_their_pile_and_the_winner_starts():
    g = state("turn=1 rules=gobbit | Sb/Mb | Sr/Cr,Mr | Sy/My | Cb")
    g, events = apply(g, touches("3>g@4", "2>g@6", "1>2@1"))
    assert GobbitWon(3) in events
    assert [g.pile(s) for s in (1, 2, 3)] == [(), (), ()]
    assert g.deck(2) == cards("Sr,Cr,Mr") and g.graveyard == cards("Cb")
    assert g.turn == 3 and on_turn(g) == 3


def test_faq20_the_last_player_with_a_deck_goes_on_until_a_successful_defence():
    g = state("turn=1 | Cb,Mb/Mr | -/Sb | -/Cr")
    g, _ = apply(g, Flip(1))  # seat 1 shows a blue chameleon; seat 2's blue snake may eat it
    g, events = apply(g, touches("2>1@0"))
    assert not g.over  # a successful attack: seat 2 has cards to flip again, the game goes on
    assert on_turn(g) is not None and g.deck(2)
    h = state("turn=1 | Cb,Mb/Mr | -/Sb | -/Cr")
    h, _ = apply(h, Flip(1))
    h, events = apply(h, touches("1>1@0", "2>1@5"))
    assert h.over and isinstance(events[-1], GameEnded)  # one successful defence ends it


def test_faq20_a_defence_by_someone_else_does_not_end_the_game():
    g = state("turn=1 | Mb,Sy/- | -/Cb | -/Sb | -/Cr")
    g, _ = apply(g, touches("2>2@0"))
    assert not g.over


def test_d11_finish_only_when_nobody_can_flip():
    g = state("turn=1 | Mb/- | -/Cb | -/Sr")
    with pytest.raises(IllegalMove, match="can still flip"):
        apply(g, Finish())
    g, _ = apply(g, Flip(1))
    assert legal_actions(g) == [Finish()]
    g, events = apply(g, Finish())
    assert g.over and events == [GameEnded((1, 2, 3), (1, 1, 1))]
    assert winners(g) == (1, 2, 3)  # D12: a three-way draw


def test_faq21_most_cards_win_counting_deck_and_pile():
    g = state("over=yes | Mb,Sy/Cr | Sb/- | -/Cy,My,Mr")
    assert card_counts(g) == (3, 1, 3)
    assert winners(g) == (1, 3)


def test_faq21_the_only_player_with_cards_wins_at_once():
    g = state("turn=1 | Mb,Sy/Cb | Cr/Sb | -/-")
    g, events = apply(g, touches("1>1@0", "2>1@3"))  # seat 1 defends: seat 2 keeps its snake
    assert not g.over
    g = state("turn=1 | Mb,Sy/Cr | -/Sb | -/-")
    g, events = apply(g, touches("2>1@0"))  # a foul: seat 2's last card goes to the graveyard
    assert g.over and winners(g) == (1,)
    assert events[-1] == GameEnded((1,), (3, 0, 0))


# --- ghosts -------------------------------------------------------------------------------


def test_a_player_without_cards_becomes_a_ghost_with_the_ghost_rule():
    g = state("turn=1 rules=ghost | Mb/Sb | -/Cb | Sy/Cy | Sr/Cy")
    g, events = apply(g, touches("1>2@0"))
    assert BecameGhost(2) in events and g.ghosts == {2}
    g, events = apply(g, touches("2>3@0"))  # a ghost attacks the pair of yellow chameleons
    assert PileMoved(3, "graveyard", 1) in events


def test_without_the_ghost_rule_the_player_leaves_and_its_touches_are_dropped():
    g = state("turn=1 | Mb/Sb | -/Cb | Sy/Cy | Sr/Cy")
    g, events = apply(g, touches("1>2@0"))
    assert LeftGame(2) in events and g.out == {2}
    assert 2 not in situation(g).tops
    before = g
    g, events = apply(g, touches("2>3@0", "3>2@1"))  # D10
    assert g == before


def test_ghosts_never_flip_and_are_skipped():
    g = state("turn=2 rules=ghost ghosts=2 | Mb/- | -/- | Sy/-")
    assert on_turn(g) == 3


# --- the gorilla ---------------------------------------------------------------------------


def test_gorilla_flip_opens_an_attack_and_its_player_flips_again():
    g = state("turn=1 rules=gorilla | G,Mb/- | Sy/Cr | Sb/My | Cb/Mr")
    g, events = apply(g, Flip(1))
    assert events == [Flipped(1, parse_card("G")), GorillaAttack(1)]
    assert g.gorilla == 1 and on_turn(g) == 1
    g, events = apply(g, touches("1>2@0", "1>3@2", "4>4@1", "1>4@3"))
    assert PileMoved(2, "graveyard", 1) in events and PileMoved(3, "graveyard", 1) in events
    assert PileMoved(4, 4, 1) in events
    g, _ = apply(g, Flip(1))
    assert g.gorilla is None and g.top(1) == parse_card("Mb") and g.turn == 2


def test_without_the_gorilla_rule_a_gorilla_is_just_a_card():
    g = state("turn=1 | G,Mb/- | Sy/Cr")
    g, events = apply(g, Flip(1))
    assert g.gorilla is None and g.turn == 2
    g, events = apply(g, touches("1>2@0"))
    assert g.pile(1) == () and g.graveyard == cards("G")


def test_a_gorilla_flipped_out_of_turn_does_not_attack():
    g = state("turn=2 rules=gorilla | G,Mb/- | Sy/Cr")
    g, events = apply(g, Flip(1))
    assert g.gorilla is None and events == [FlippedOutOfTurn(1, parse_card("G"))]


# --- the expert variant ----------------------------------------------------------------------


def test_expert_condition_is_the_back_of_the_graveyard_top_card_and_changes_with_it():
    g = state("turn=1 expert=yes | Mb/Sr | Cb/Cr | Mb/Sb | CyR")
    assert condition(g) is Condition.REVERSED
    g, events = apply(g, touches("3>2@0"))  # reversed: a snake eats nothing -> foul
    assert PileMoved(3, "graveyard", 1) in events
    assert g.graveyard[-1] == parse_card("Sb")
    assert condition(g) is None and ConditionChanged(None) in events
    h = state("turn=1 expert=yes | Mb/Sr | Cb/Cb | Mb/SbA | CyR")
    h, events = apply(h, touches("3>2@0"))
    assert ConditionChanged(Condition.ANY_COLOUR) in events
    h, events = apply(h, touches("1>2@0"))  # any colour now: the red snake eats the blue one
    assert PileMoved(2, 1, 1) in events


def test_expert_condition_is_off_without_the_variant():
    g = state("turn=1 | Mb/Sr | Cb/Cr | CyR")
    assert condition(g) is None
    assert situation(g).expert is None


def test_a_pile_sent_to_the_graveyard_is_turned_over_onto_it():
    g = state("turn=1 expert=yes | Mb/SrE,CrA,MyD | Cb/Cb | Sy")
    g, _ = apply(g, touches("1>g@0"))
    assert g.graveyard == cards("Sy,MyD,CrA,SrE")  # D7: the pile's bottom card ends on top
    assert condition(g) is Condition.EXPLODE


# --- errors ----------------------------------------------------------------------------------


def test_the_engine_refuses_impossible_actions_in_one_sentence():
    g = state("turn=1 | Mb/- | -/Cb")
    for action, fragment, code in [(Flip(2), "no face-down card", "empty-deck"),
                                   (Flip(5), "no seat 5", "no-seat"),
                                   (Discard(1), "no card flipped out of turn", "no-stray"),
                                   (Finish(), "can still flip", "can-still-flip")]:
        with pytest.raises(IllegalMove, match=fragment) as err:
            apply(g, action)
        assert err.value.code == code and err.value.reason.why == code
    over = state("over=yes | Mb/- | -/Cb")
    with pytest.raises(GameOver, match="over"):
        apply(over, Flip(1))
    assert legal_actions(over) == []


# --- properties --------------------------------------------------------------------------------

RULES = st.sets(st.sampled_from(["gobbit", "ghost", "gorilla"]))


@st.composite
def games(draw):
    rules = draw(RULES)
    seats = draw(st.integers(2, 5))
    deck = list(standard_deck(rules))
    order = draw(st.permutations(range(len(deck))))
    start = new_game(seats, [deck[i] for i in order], draw(st.integers(1, seats)), rules,
                     draw(st.booleans()))
    g = start
    actions = []
    for _ in range(draw(st.integers(0, 120))):
        if g.over:
            break
        options = legal_actions(g)
        if draw(st.integers(0, 2)) == 0 or not options:
            n = draw(st.integers(0, 4))
            targets = [*g.seats, "g"]
            action = Touches(tuple(
                Touch(draw(st.sampled_from(g.seats)), draw(st.sampled_from(targets)),
                      float(draw(st.integers(0, 30)))) for _ in range(n)))
        else:
            action = draw(st.sampled_from(options))
        g, _ = apply(g, action)
        actions.append(action)
    return start, actions


@settings(max_examples=150, deadline=None)
@given(games())
def test_property_cards_are_conserved_across_any_sequence_of_rulings(game):
    start, actions = game
    total = Counter(all_cards(start))
    g = start
    for action in actions:
        g, _ = apply(g, action)
        assert Counter(all_cards(g)) == total
        assert g.ghosts.isdisjoint(g.out)
        for seat in g.ghosts | g.out:
            assert g.deck(seat) == () and g.pile(seat) == ()


@settings(max_examples=100, deadline=None)
@given(games())
def test_property_replays_are_exact_and_the_notation_round_trips(game):
    start, actions = game
    a, events_a = replay(start, actions)
    b, events_b = replay(start, actions)
    assert a == b and events_a == events_b
    assert parse_state(format_state(a)) == a
    assert parse_state(format_state(start)) == start


def test_d12_when_the_last_cards_go_to_the_graveyard_nobody_wins():
    g = state("turn=1 | -/Mb | -/Sr | Cb")
    g, events = apply(g, touches("1>g@0", "2>g@1"))
    assert g.over and winners(g) == () and events[-1] == GameEnded((), (0, 0))
