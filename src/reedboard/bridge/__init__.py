"""The Pico firmware and the Pi side of its serial link (see DESIGN.md "firmware_bridge")."""
