"""Two boards, one game: rule-checked remote play over MQTT.

Each daemon connects to a broker (``[remote]`` in the config, or ``reedboard run --remote
mqtt://HOST:PORT --match ID --seats fox``). What travels is moves, not switch events: each
move committed on a board is a small JSON message (reedboard/daemon/remote/message.py); the other
daemon checks it with its own engine and plays it through the referee as a move from a
remote source, lit for its player to carry out. Throws are agreed by commit and reveal
(reedboard/daemon/remote/fairdice.py); each board keeps its whole game retained on the broker, so
a late joiner or a restarted daemon resyncs from the last agreed ply; takebacks are asked and
answered (reedboard/daemon/remote/game.py, no network). The connection, presence on the broker's
last will and reconnecting are reedboard/daemon/remote/link.py's; ``reedboard watch``
(reedboard/daemon/remote/watch.py) follows a match read-only.

settings.py imports nothing outside the standard library: the daemon reads a ``[remote]``
table without aiomqtt installed; only the link needs it (the ``remote`` extra).
"""
