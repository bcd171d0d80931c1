"""The referee: turns what the switches sense into moves (recognition, pending moves), checks
them against the engine, and says what the LEDs show (leds, hints) and what happened (events)."""
