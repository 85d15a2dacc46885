"""The contracts everything uses, in the bottom layers (docs/architecture.md): the Game
protocol and its Capabilities flags (``protocol``), the view of a game from a position
(``position``), and the search result record (``result``). Games, trees, algorithms and the
engine import them from here; ``searchlab.games.protocol``, ``searchlab.games.position`` and
``searchlab.algorithms.result`` re-export them for code written against the old places. The
compiled-game contracts, what a game's compiled primitives satisfy (``compiled``: ``CompiledGame``,
``Primitives``; ``compiled_chance``; ``compiled_nplayer``; ``compiled_stubs``: the primitives a
game lacks), sit here too; ``searchlab.algorithms.compiled`` re-exports them."""
