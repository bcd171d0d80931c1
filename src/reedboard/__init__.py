"""reedboard: old board games on a wooden board with reed switches and RGB LEDs.

Where things are (docs/design.md says more): ``engine`` holds the rules and imports nothing
else of ours; ``hardware`` and ``bridge`` talk to the board (GPIO, or a Pico over USB serial);
``wiring`` holds the boards' layouts and builds as data; ``referee`` turns what the switches
sense into moves; ``store`` keeps the games; ``sim`` plays the simulated board; ``daemon`` runs
it all with its extensions (web view, remote play, computer players, console); ``cli`` is the
``reedboard`` command.
"""

__version__ = "0.1.0"
