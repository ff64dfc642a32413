"""Board entry point of the pad hub (Raspberry Pi Pico, MicroPython): the only module that
imports machine.

Wiring (hardware/guide/pads.md, "The pad hub"): the multiplexers' address lines A, B,
C on GP3, GP4, GP5, the strobe on GP2 (read back by the sense machines: it must
sit just below the address pins), the seven islands' sense lines (the
multiplexers' common pins, each with 390 kOhm to 3.3 V: piles 1..6, then the
graveyard) on GP6..GP12, the on-board LED (GP25)
lit while an event waits for its acknowledgement.  The link is UART0 towards
the Pi's UART by default (GP0 = TX to the Pi's GPIO15, GP1 = RX from GPIO14);
set ``LINK = "usb"`` for USB CDC.
"""

import os
import sys

import machine
import tablelink
import tablewire
from padhub import VERSION, layout
from padhub.app import Hub
from padhub.shims import sleep_ms, ticks_ms
from tablestreams import name_usb, open_stream

LINK = "uart"  # or "usb"
USB_PRODUCT = "Companion pad hub"  # the USB product string (scripts/99-companion-dice.rules)
UART_BAUD = 115200
STROBE_PIN = 2
ADDRESS_PIN = 3  # A, B, C on 3, 4, 5
SENSE_PINS = (6, 7, 8, 9, 10, 11, 12)  # the multiplexers of piles 1..6 and the graveyard
STATUS_LED = 25
SYSTEM_HZ = 125_000_000


def device_id():
    return "hub-" + machine.unique_id()[-4:].hex().upper()


def make_stream(link):
    if link != "uart":
        name_usb(machine, USB_PRODUCT)  # udev names it /dev/companion-padhub by this
    return open_stream(link, machine, UART_BAUD)


def build(link=LINK, entropy=None, scanner=None):
    """The hub, wired: ``scanner`` defaults to the PIO state machines."""
    machine.freq(SYSTEM_HZ)
    if scanner is None:
        from padhub.pio import PioScanner

        for n in (ADDRESS_PIN, ADDRESS_PIN + 1, ADDRESS_PIN + 2, STROBE_PIN):
            machine.Pin(n, machine.Pin.OUT, value=0)
        scanner = PioScanner(machine.Pin(STROBE_PIN), machine.Pin(ADDRESS_PIN),
                             [machine.Pin(n, machine.Pin.IN) for n in SENSE_PINS])
    entropy = entropy or os.urandom
    boot_id = entropy(4).hex().upper()
    hub = None

    def beat():
        return hub.beat_fields()

    hub_link = tablelink.Link(make_stream(link), tablewire.PADHUB, device_id(), VERSION, boot_id,
                              (layout.CHANNELS, layout.SCAN_US), beat)
    hub = Hub(scanner.read, hub_link, missed=scanner.missed,
              status_led=machine.Pin(STATUS_LED, machine.Pin.OUT), limit=layout.COUNT_LIMIT)
    hub.scanner = scanner
    return hub


def main():
    try:
        hub = build()
        hub.scanner.start()
        hub.run(ticks_ms)
    except Exception as exc:  # noqa: BLE001 - a hub must not stay dead
        sys.print_exception(exc)
        sleep_ms(2000)
        machine.reset()


if __name__ == "__main__":
    main()
