"""Writes Companion.pretty/RaspberryPi_Pico_THT.kicad_mod: the Pico's (and Pico W's) 40 edge
pins on a 2.54 mm grid, rows 17.78 mm apart, pin 1 top left with the USB end at the top
(the module soldered flat through pin headers, or by its castellations)."""

from pathlib import Path

HERE = Path(__file__).resolve().parent


def text() -> str:
    lines = ['(footprint "RaspberryPi_Pico_THT" (version 20211014) (generator companion)',
             '  (layer "F.Cu")',
             '  (descr "Raspberry Pi Pico / Pico W, 2x20 through-hole, rows 17.78 mm apart")',
             '  (attr through_hole)',
             '  (fp_text reference "REF**" (at 0 -27.5) (layer "F.SilkS")',
             '    (effects (font (size 1 1) (thickness 0.15))))',
             '  (fp_text value "Pico" (at 0 27.5) (layer "F.Fab")',
             '    (effects (font (size 1 1) (thickness 0.15))))']
    for x1, y1, x2, y2 in ((-10.5, -25.5, 10.5, -25.5), (10.5, -25.5, 10.5, 25.5),
                           (10.5, 25.5, -10.5, 25.5), (-10.5, 25.5, -10.5, -25.5)):
        lines.append(f'  (fp_line (start {x1} {y1}) (end {x2} {y2}) (layer "F.SilkS") (width 0.12))')
        lines.append(f'  (fp_line (start {x1 * 1.02:.2f} {y1 * 1.02:.2f}) (end {x2 * 1.02:.2f} '
                     f'{y2 * 1.02:.2f}) (layer "F.CrtYd") (width 0.05))')
    lines.append('  (fp_text user "USB" (at 0 -23.5) (layer "F.SilkS")'
                 ' (effects (font (size 1 1) (thickness 0.15))))')
    for n in range(1, 41):
        if n <= 20:
            x, y = -8.89, -24.13 + (n - 1) * 2.54
        else:
            x, y = 8.89, 24.13 - (n - 21) * 2.54
        shape = "rect" if n == 1 else "circle"
        lines.append(f'  (pad "{n}" thru_hole {shape} (at {x} {y:.2f}) (size 1.7 1.7)'
                     ' (drill 1.02) (layers *.Cu *.Mask))')
    lines.append(')')
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    (HERE / "Companion.pretty" / "RaspberryPi_Pico_THT.kicad_mod").write_text(text())
