"""The reedboard daemon and its command line: recognition, LED policy, dice, game store, CLI."""
