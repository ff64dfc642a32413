"""Board entry point of the dice (Raspberry Pi Pico W, MicroPython): the only module that
imports ``machine`` and ``bluetooth``.

Wiring (hardware/README.md, "The die"): ADXL345 on I2C1 (GP2 = SDA, GP3 = SCL), the
seven pip LEDs on GP10..GP16, the switched cell through two equal resistors on GP28
(ADC2; the Pico W's VSYS/3 on GP29 is its radio's SPI clock), USB power sensed on the
radio chip's WL_GPIO2, the on-board LED ("LED") lit while an event waits for its
acknowledgement.

The link is the Pico W's own Bluetooth LE radio by default (``LINK = "ble"``, a
Nordic-UART-style service: ``dice/ble.py``); ``"usb"`` is the USB cable (CDC) and
``"uart"`` UART0 (GP0 = TX, GP1 = RX) towards the Pi's UART.  On a plain Pico (no
radio) ``"ble"`` falls back to USB, and the on-board LED and the VBUS sense are GP25
and GP24.

The cell is guarded (``dice/battery.py``): below 3.5 V the die warns, below 3.3 V it
sleeps until it is switched off and on again, and it does not start below 3.5 V.
"""

import os
import sys

import machine
from dice import VERSION
from dice.adxl345 import ADXL345, POWER_CTL
from dice.app import App
from dice.battery import Battery, Guard, may_start
from dice.ble import NAME, BleStream
from dice.link import Link
from dice.shims import sleep_ms, ticks_ms
from dice.streams import name_usb, open_stream

LINK = "ble"  # or "usb", "uart"
CELL = True  # a wireless die's cell; False for a die powered by its cable (no guard)
USB_PRODUCT = "Companion dice"  # the USB product string (scripts/99-companion-dice.rules)
UART_BAUD = 115200
I2C_ID = 1
I2C_SDA = 2
I2C_SCL = 3
LED_PINS = (10, 11, 12, 13, 14, 15, 16)  # pips 0..6, see dice/pips.py
CELL_ADC = 28  # GP28 / ADC2: the switched cell through 2 x 100 kOhm
CELL_DIVIDER = 2
STATUS_LED = "LED"  # the Pico W's LED (on the radio chip); GP25 on a plain Pico
VBUS_SENSE = "WL_GPIO2"  # the Pico W's VBUS sense (on the radio chip); GP24 on a plain Pico


def device_id():
    return "pico-" + machine.unique_id()[-4:].hex().upper()


def radio():
    """MicroPython's ``bluetooth`` module, or None on a board without a radio."""
    try:
        import bluetooth
    except ImportError:
        return None
    return bluetooth


def make_stream(link, bluetooth=None):
    if link == "ble" and bluetooth is not None:
        name = NAME + " " + machine.unique_id()[-2:].hex().upper()
        return BleStream(bluetooth.BLE(), bluetooth.UUID, name)
    if link != "uart":
        name_usb(machine, USB_PRODUCT)  # udev names it /dev/companion-dice by this
    return open_stream(link, machine, UART_BAUD)


def power_off(i2c, leds, bluetooth=None):
    """What the die does when its cell is empty: everything off, then sleep for good."""
    for led in leds:
        led.value(0)
    try:
        i2c.writeto_mem(0x53, POWER_CTL, b"\x00")  # the accelerometer to standby
    except OSError:
        pass
    if bluetooth is not None:
        bluetooth.BLE().active(False)
    machine.deepsleep()  # until the switch is turned off and on


def build(link=LINK, entropy=None, bluetooth=None, has_cell=CELL):
    wireless = bluetooth is not None
    i2c = machine.I2C(I2C_ID, sda=machine.Pin(I2C_SDA), scl=machine.Pin(I2C_SCL), freq=400000)
    leds = [machine.Pin(pin, machine.Pin.OUT) for pin in LED_PINS]
    if wireless:
        cell = Battery(machine.ADC(CELL_ADC), machine.Pin(VBUS_SENSE, machine.Pin.IN), CELL_DIVIDER)
    else:  # a plain Pico: its own VSYS/3 on GP29 and VBUS sense on GP24
        cell = Battery(machine.ADC(29), machine.Pin(24, machine.Pin.IN))
    guarded = wireless and has_cell
    if guarded and not may_start(cell.millivolts()):
        power_off(i2c, leds)  # a cell cut off before: charge it first
    accel = ADXL345(i2c)
    entropy = entropy or os.urandom  # the RP2040's ring-oscillator entropy
    boot_id = entropy(4).hex().upper()
    dice_link = Link(make_stream(link, bluetooth), device_id(), VERSION, boot_id, cell.millivolts)
    status = machine.Pin(STATUS_LED if wireless else 25, machine.Pin.OUT)
    return App(accel, leds, dice_link, entropy, status_led=status, battery=cell.millivolts,
               guard=Guard() if guarded else None,
               power_off=lambda: power_off(i2c, leds, bluetooth))


def main():
    try:
        build(bluetooth=radio()).run(ticks_ms, sleep_ms)
    except Exception as exc:  # noqa: BLE001 - a dice must not stay dead
        sys.print_exception(exc)
        sleep_ms(2000)
        machine.reset()


if __name__ == "__main__":
    main()
