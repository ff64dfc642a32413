"""The printable cases of the companion as code: the box, the pad islands' trays and the die.

Every part is a `manifold3d.Manifold` built from the dimensions in `parts.py`; the HAT's
button and OLED-connector positions are read from the board file (`kicad_board.py`).
"""
