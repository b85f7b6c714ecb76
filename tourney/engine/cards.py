"""Playing cards as two-character strings: rank ``23456789TJQKA`` then suit ``shdc``.

Pure Python; shared by the showdown (RULES 6.4) and the chip race (RULES 5.3, 5.4).
Cards are kept as their text (``"As"``, ``"Td"``); ``card_id`` gives the integer
``rank * 4 + suit`` (clubs 0, diamonds 1, hearts 2, spades 3), which is both the chip-race
order of RULES 5.4 and the card id the ``phevaluator`` library uses.

Parsing is strict (rank upper case, suit lower case, exactly as docs/api.md writes them); only
whitespace between cards is ignored, so ``"Ad Kd 3c"`` and ``"AdKd3c"`` both parse.
"""

from __future__ import annotations

from collections.abc import Iterable

from tourney.engine.errors import N_, DomainError

RANKS = "23456789TJQKA"
# Suit order of RULES 5.4, lowest first: clubs < diamonds < hearts < spades.
SUITS_LOW_TO_HIGH = "cdhs"
SUITS = "shdc"

MSG_BAD_CARD = N_(
    "A card is two characters: rank 23456789TJQKA then suit s, h, d or c (e.g. As, Td)."
)
MSG_DUPLICATE_CARD = N_("The same card appears more than once.")

_RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)}
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS_LOW_TO_HIGH)}

# Every card of the deck, in id order (2c, 2d, 2h, 2s, 3c ... As).
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS_LOW_TO_HIGH)
_CARD_ID = {card: index for index, card in enumerate(DECK)}


def parse_card(text: object) -> str:
    """Validate one card and return it. DomainError ``bad_card`` (400) if it is not a card."""
    if isinstance(text, str) and text in _CARD_ID:
        return text
    raise DomainError("bad_card", MSG_BAD_CARD, fields={"card": repr(text)}, status=400)


def parse_cards(text: object) -> tuple[str, ...]:
    """Split a run of cards such as ``"AdKd3c9s4h"`` into ``("Ad", "Kd", "3c", "9s", "4h")``.

    Whitespace is ignored. Raises ``bad_card`` for anything that is not a run of whole cards
    and ``duplicate_card`` when a card repeats.
    """
    if not isinstance(text, str):
        raise DomainError("bad_card", MSG_BAD_CARD, fields={"card": repr(text)}, status=400)
    compact = "".join(text.split())
    if len(compact) % 2:
        raise DomainError("bad_card", MSG_BAD_CARD, fields={"card": text}, status=400)
    cards = tuple(parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2))
    ensure_distinct(cards)
    return cards


def ensure_distinct(cards: Iterable[str]) -> None:
    """Raise ``duplicate_card`` (400) if a card occurs twice (one deck, RULES 5.3 and 6.4)."""
    seen: set[str] = set()
    for card in cards:
        if card in seen:
            raise DomainError(
                "duplicate_card", MSG_DUPLICATE_CARD, fields={"card": card}, status=400
            )
        seen.add(card)


def card_id(card: str) -> int:
    """``rank * 4 + suit`` with clubs 0 .. spades 3; the card must already be valid."""
    return _CARD_ID[card]


def card_order_key(card: str) -> int:
    """Chip-race order of RULES 5.4: rank first, ties by suit spades > hearts > diamonds > clubs.

    A higher key is a better card. Raises ``bad_card`` for an invalid card.
    """
    return _CARD_ID[parse_card(card)]


def rank_index(card: str) -> int:
    """0 for a deuce .. 12 for an ace."""
    return _RANK_INDEX[card[0]]


def suit_index(card: str) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return _SUIT_INDEX[card[1]]
