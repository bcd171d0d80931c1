"""The Pico firmware and the Pi side of its serial link (see docs/design.md, "bridge")."""
