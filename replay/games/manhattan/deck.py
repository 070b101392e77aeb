"""Manhattan's building cards (M3): the deal, the hands, the draw pile and its reshuffles.

**Seeded games.** The 45 cards in lot order (``Material.deck``) are shuffled by
``SeededStream(seed, "manhattan-deck")``; seat 0 gets the first 4 cards, seat 1 the next 4,
and so on; the pile is the rest, drawn from the front. When a player must draw and the pile is
empty, all played cards, in the order they were played (the one just played included), are
shuffled by ``SeededStream(seed, "manhattan-deck/<k>")`` (k = 1, 2, ...) into the new pile.
Test vectors (default material): seed ``"0"`` deals ``[7, 8, 6, 6]`` to seat 0, seed ``"1"``
deals ``[0, 1, 2, 6]`` (pinned by ``tests/test_manhattan.py``). A log may state the deal and
every card drawn; both are checked against the seed.

**Table games** (no seed) name the deal in the header and the card drawn in every move that
plays a card; the verifier checks that each is still in the pile (the deck less the hands and
the cards played since the last reshuffle).

The state hash of the cards is kept incrementally: one item per card in a hand (by its copy
number), one per played card (by its place in the played pile) and one for the number of
reshuffles. The pile is the deck less the hands and the played cards, so its size needs no
item; as for tiles (docs/determinism.md), its order is the seed's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Self

from mypy_extensions import i64

from ...core.errors import IllegalMove
from ...core.rng import SeededStream, drawn_seed
from . import hashes
from .events import Reshuffle
from .material import LOTS, Material, lot_name


def card_text(card: int) -> str:
    """``card 4 (the centre lot as printed)``."""
    return f"card {card} ({lot_name(card)} as printed)"


class Deck:
    """The cards of one game: hands, draw pile, played cards (M3)."""

    hands: list[list[int]]
    pile: list[int]
    played: list[int]
    reshuffles: int
    hash: i64  # hands and reshuffles, signed (``hashes.signed``)
    played_hash: i64  # the played cards, signed
    _memo: tuple[tuple[int, tuple[int, ...]], list[int]] | None

    def __init__(self, material: Material | None, names: Sequence[str], seed: str | None,
                 deal: Sequence[Sequence[int]] | None, original: Deck | None = None) -> None:
        self.seed = seed
        self.names = tuple(names)
        if original is not None or material is None:  # a copy (``copy``)
            assert original is not None
            self.reshuffles, self.hash = original.reshuffles, original.hash
            self.played_hash, self._memo = original.played_hash, original._memo
            self.hands = [list(h) for h in original.hands]
            self.pile, self.played = list(original.pile), list(original.played)
            return
        size = material.hand_size
        n = len(names)
        if seed is not None:
            hands, pile, start_hash = _seeded_start(seed, material.cards_per_lot, size, n)
            self.hands = [list(h) for h in hands]
            self.pile = list(pile)
            for s, hand in enumerate(deal or ()):
                if sorted(hand) != sorted(self.hands[s]):
                    raise IllegalMove("M3", f"{names[s]}'s hand is given as {sorted(hand)}, "
                                      f"but the seeded deal gives {sorted(self.hands[s])}")
        else:
            if deal is None:
                raise IllegalMove("M3", "a log without a seed must name the deal: the cards "
                                  "each player holds at the start (deal)")
            self.hands = [list(h) for h in deal]
            left = [material.cards_per_lot[lot] for lot in range(LOTS)]
            for s, hand in enumerate(self.hands):
                if len(hand) != size:
                    raise IllegalMove("M3", f"{names[s]} is dealt {len(hand)} cards; each "
                                      f"player holds {size}")
                for card in hand:
                    if not 0 <= card < LOTS:
                        raise IllegalMove("M1", f"card {card} in {names[s]}'s hand: a card "
                                          "marks one of the lots 0 to 8")
                    left[card] -= 1
                    if left[card] < 0:
                        raise IllegalMove("M3", f"the deal holds more {card_text(card)} "
                                          f"than the {material.cards_per_lot[card]} of the deck")
            self.pile = [lot for lot in range(LOTS) for _ in range(left[lot])]
            start_hash = _hands_hash(self.hands)
        self.played = []
        self.reshuffles = 0
        self.hash = start_hash
        self.played_hash = 0
        self._memo = None

    def copy(self) -> Self:
        """An independent copy."""
        return type(self)(None, self.names, self.seed, None, self)

    def redraw(self, seat: int, rng: SeededStream) -> None:
        """What ``seat`` cannot know redrawn (``GameState.redraw_hidden``): the other hands
        and the pile, dealt again from their cards in lot order shuffled by ``rng``, each
        hand keeping its size; the reshuffles to come are seeded from ``rng`` too. The seat
        knows its hand and the cards played (the others' are the cards it has not seen)."""
        pool = sorted(self.pile + [c for s, h in enumerate(self.hands) if s != seat
                                   for c in h])
        rng.shuffle(pool)
        at = 0
        for s, hand in enumerate(self.hands):
            if s != seat:
                self.hands[s] = pool[at:at + len(hand)]
                at += len(hand)
        self.pile = pool[at:]
        self.seed = drawn_seed(rng)
        self._memo = None
        self.hash = (_hands_hash(self.hands) ^ hashes.reshuffles(0)
                     ^ hashes.reshuffles(self.reshuffles))

    def check_play(self, seat: int, card: object) -> None:
        """M1/M3: ``card`` is a card ``seat`` holds."""
        if not (type(card) is int and 0 <= card < LOTS):
            raise IllegalMove("M1", f"card {card!r}: a card marks one of the lots 0 to 8")
        if card not in self.hands[seat]:
            raise IllegalMove("M3", f"{self.names[seat]} holds no {card_text(card)}; hand "
                              f"{sorted(self.hands[seat])}")

    def next_card(self, played: int) -> int | None:
        """The card the player draws after playing ``played`` (seeded games), or None (table
        games: any card of the pile)."""
        if self.seed is None:
            return None
        if self.pile:
            return self.pile[0]
        return self._reshuffled((*self.played, played))[0]

    def _reshuffled(self, played: tuple[int, ...]) -> list[int]:
        """The next reshuffle's pile from the played cards (seeded games); kept, since the
        move that reshuffles is checked before it is applied."""
        key = (self.reshuffles + 1, played)
        if self._memo is None or self._memo[0] != key:
            pile = list(played)
            SeededStream(str(self.seed), f"manhattan-deck/{key[0]}").shuffle(pile)
            self._memo = (key, pile)
        return list(self._memo[1])

    def possible_draws(self, played: int) -> list[int]:
        """The cards a player may draw after playing ``played`` (one, in a seeded game)."""
        expected = self.next_card(played)
        if expected is not None:
            return [expected]
        return sorted(set(self.pile if self.pile else [*self.played, played]))

    def check_draw(self, seat: int, played: int, named: int | None) -> None:
        """M3: the card a move says was drawn is the one the pile gives."""
        expected = self.next_card(played)
        if expected is not None:
            if named is not None and named != expected:
                raise IllegalMove("M3", f"the log says {self.names[seat]} drew card {named}, "
                                  f"but the seeded pile gives {card_text(expected)}")
            return
        if named is None:
            raise IllegalMove("M3", "a log without a seed must name the card drawn after "
                              "every card played (draw)")
        pile = self.pile if self.pile else [*self.played, played]
        if not (type(named) is int and 0 <= named < LOTS) or named not in pile:
            raise IllegalMove("M3", f"{self.names[seat]} cannot draw card {named!r}: the pile "
                              f"holds {_cards(pile)}")

    def play(self, seat: int, card: int) -> None:
        """``seat`` plays ``card`` from their hand onto the played pile."""
        hand = self.hands[seat]
        hand.remove(card)
        self.hash ^= hashes.hand(seat, card, hand.count(card))
        played = self.played
        self.played_hash ^= hashes.played(len(played), card)
        played.append(card)

    def play_and_draw(self, seat: int, card: int, named: int | None,
                      explain: bool) -> list[Reshuffle]:
        """``play`` then ``draw``; the common draw (from a seeded pile that is not empty) is
        written out: a replay does it every move."""
        self.play(seat, card)
        pile = self.pile
        if not pile or named is not None:
            return self.draw(seat, named, explain)
        drawn = pile.pop(0)
        hand = self.hands[seat]
        self.hash ^= hashes.hand(seat, drawn, hand.count(drawn))
        hand.append(drawn)
        return []

    def draw(self, seat: int, named: int | None, explain: bool = True) -> list[Reshuffle]:
        """``seat`` draws (the ``named`` card in a table game), reshuffling when the pile is
        empty. ``check_draw`` has accepted the move."""
        events: list[Reshuffle] = []
        h = self.hash
        if not self.pile:
            h ^= hashes.reshuffles(self.reshuffles) ^ hashes.reshuffles(self.reshuffles + 1)
            if self.seed is not None:
                pile = self._reshuffled(tuple(self.played))
            else:
                pile = sorted(self.played)
            self.reshuffles += 1
            self.pile, self.played = pile, []
            self.played_hash = 0
            if explain:
                events.append(Reshuffle(self.reshuffles, len(pile)))
        if named is None:
            card = self.pile.pop(0)
        else:
            card = named
            self.pile.remove(card)
        hand = self.hands[seat]
        h ^= hashes.hand(seat, card, hand.count(card))
        hand.append(card)
        self.hash = h
        return events




def _hands_hash(hands: Sequence[Sequence[int]]) -> i64:
    """The hash items of the hands, and of no reshuffle yet (signed)."""
    h = hashes.reshuffles(0)
    for s, hand in enumerate(hands):
        for k, card in enumerate(hand):
            h ^= hashes.hand(s, card, list(hand[:k]).count(card))
    return h


@lru_cache(maxsize=256)
def _seeded_start(seed: str, cards_per_lot: tuple[int, ...], size: int, players: int) -> tuple[
        tuple[tuple[int, ...], ...], tuple[int, ...], i64]:
    """The seeded deal: hands, pile and their hash (kept: a log's header is checked, then
    its game set up, with the same seed)."""
    deck = [lot for lot in range(LOTS) for _ in range(cards_per_lot[lot])]
    SeededStream(seed, "manhattan-deck").shuffle(deck)
    hands = tuple(tuple(deck[s * size:(s + 1) * size]) for s in range(players))
    return hands, tuple(deck[players * size:]), _hands_hash(hands)


def _cards(cards: Sequence[int]) -> str:
    counts = [sum(1 for c in cards if c == lot) for lot in range(LOTS)]
    return ", ".join(f"{n}× card {lot}" for lot, n in enumerate(counts) if n) or "nothing"
