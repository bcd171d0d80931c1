"""The `reedboard` command line: one module per command group; main.py dispatches."""
