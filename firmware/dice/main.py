"""Board entry point of the dice (Raspberry Pi Pico, MicroPython): the only module that imports machine.

Wiring (hardware/guide/dice.md): ADXL345 on I2C1 (GP2 = SDA, GP3 = SCL), the seven
pip LEDs on GP10..GP16, battery sense on GP29 (VSYS/3) and GP24 (VBUS), the
on-board LED (GP25) lit while an event waits for its acknowledgement.  The
link is USB CDC by default; set ``LINK = "uart"`` for UART0 (GP0 = TX,
GP1 = RX) towards the Pi's UART or a Bluetooth SPP module.
"""

import os
import sys

import machine
from dice import VERSION
from dice.adxl345 import ADXL345
from dice.app import App
from dice.battery import Battery
from dice.link import Link
from dice.shims import sleep_ms, ticks_ms
from dice.streams import name_usb, open_stream

LINK = "usb"  # or "uart"
USB_PRODUCT = "Companion dice"  # the USB product string (scripts/99-companion-dice.rules)
UART_BAUD = 115200
I2C_ID = 1
I2C_SDA = 2
I2C_SCL = 3
LED_PINS = (10, 11, 12, 13, 14, 15, 16)  # pips 0..6, see dice/pips.py
STATUS_LED = 25
VSYS_ADC = 29
VBUS_SENSE = 24


def device_id():
    return "pico-" + machine.unique_id()[-4:].hex().upper()


def make_stream(link):
    if link != "uart":
        name_usb(machine, USB_PRODUCT)  # udev names it /dev/companion-dice by this
    return open_stream(link, machine, UART_BAUD)


def build(link=LINK, entropy=None):
    i2c = machine.I2C(I2C_ID, sda=machine.Pin(I2C_SDA), scl=machine.Pin(I2C_SCL), freq=400000)
    accel = ADXL345(i2c)
    leds = [machine.Pin(pin, machine.Pin.OUT) for pin in LED_PINS]
    battery = Battery(machine.ADC(VSYS_ADC), machine.Pin(VBUS_SENSE, machine.Pin.IN))
    entropy = entropy or os.urandom  # the RP2040's ring-oscillator entropy
    boot_id = entropy(4).hex().upper()
    dice_link = Link(make_stream(link), device_id(), VERSION, boot_id, battery.millivolts)
    return App(accel, leds, dice_link, entropy, status_led=machine.Pin(STATUS_LED, machine.Pin.OUT))


def main():
    try:
        build().run(ticks_ms, sleep_ms)
    except Exception as exc:  # noqa: BLE001 - a dice must not stay dead
        sys.print_exception(exc)
        sleep_ms(2000)
        machine.reset()


if __name__ == "__main__":
    main()
