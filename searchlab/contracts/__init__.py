"""The contracts everything uses, in the bottom layers (docs/architecture.md): the Game
protocol and its Capabilities flags (``protocol``), the view of a game from a position
(``position``), and the search result record (``result``). Games, trees, algorithms and the
engine import them from here; ``searchlab.games.protocol``, ``searchlab.games.position`` and
``searchlab.algorithms.result`` re-export them for code written against the old places. The
compiled-game contract (``CompiledGame``, ``Primitives``) is
``searchlab.algorithms.compiled``, the layer below games and trees."""
