"""The service configuration: one TOML file, checked key by key.

A wrong value is reported as one sentence naming the key (``ConfigError``);
the CLI turns it into exit code 2.  ``docs/config.md`` and
``examples/companion.toml`` document every key.
"""

from __future__ import annotations

import os
import shlex
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.devices.pads.frontends import PAD_TYPES
from companion.devices.pinmap import PinMap, PinMapError, check_layout, load_default
from companion.engines.colours import COLOURS
from companion.files import CONFIG_LIMIT, TooBig, read_text_limited

if TYPE_CHECKING:
    from companion.plugin import GamePlugin


class ConfigError(ValueError):
    """A configuration that cannot be used; the message is one sentence naming the key."""


DISPLAY_DRIVERS = ("ssd1306", "sh1106", "terminal", "asciiblock", "pygame", "gif", "dummy")


@dataclass(frozen=True)
class DisplayConfig:
    driver: str = "ssd1306"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0
    contrast: int = 255
    gif_file: str = "companion.gif"


BUTTON_BOARDS = ("wired", "bonnet")


@dataclass(frozen=True)
class ButtonsConfig:
    layout: int = 3
    long_press: float = 0.8
    bounce: float = 0.02
    board: str = "wired"
    """"wired": push buttons on the pin map's [buttons] (and [buttons_extra]); "bonnet":
    the OLED Bonnet's joystick and buttons A and B ([bonnet], five controls, no buzzer)."""

    @property
    def bonnet(self) -> bool:
        return self.board == "bonnet"


DICE_KINDS = ("serial", "ble", "pixels", "none")
PIXELS_NAME_BYTES = 31
"""A Pixels die's name is at most 31 bytes (the die firmware's ``MAX_NAME_LENGTH``)."""
BLE_NAME_BYTES = 29
"""Our Bluetooth die's name fits its scan response: at most 29 bytes."""


@dataclass(frozen=True)
class DiceConfig:
    port: str = "/dev/companion-dice"
    baudrate: int = 115200
    kind: str = "serial"  # "serial": our dice on a cable; "ble": our dice over Bluetooth LE;
    # "pixels": a Pixels die (docs/players/pixels.md); "none"
    pixels_name: str = ""  # the Pixels die to use ("" = the first one heard)
    ble_name: str = ""  # our Bluetooth die: its name ("Companion dice 3C4D") or address; "" = any


@dataclass(frozen=True)
class GameConfig:
    """``[game]``: the game the table starts with and what every game shares.

    The set-up defaults of one game live in its own section (``[<name>]`` of any game handed
    to :func:`load`).  The keys ``players`` ... ``seats`` below are the older files' way,
    deprecated and still read: a value here is the default of each game that has the key
    among its section's typed keys (:attr:`companion.plugin.GamePlugin.config_keys`) unless
    that section says otherwise; no other game sees them."""

    name: str = ""
    """The game the table starts with ("": the first of the games)."""
    players: int = 4
    variants: tuple[str, ...] = ()
    computer: tuple[str, ...] = ()
    first: str = "red"
    auto_move_delay: float = 1.5
    computer_confirm_delay: float = 0.0  # 0: a computer seat's move waits for ●
    computer_dice: bool = False  # a person rolls the real dice for the computer seats
    seats: int = 4  # a game played with the slap pads: seats with pads


SETUP_KEYS = ("players", "variants", "computer", "first", "computer_dice", "seats")
"""The ``[game]`` keys that are set-up defaults of the games (older files set them there)."""


PAD_FRONTENDS = ("gpio", "hub", "mpr121")
GPIO_MODULES = tuple(name for name, kind in PAD_TYPES.items() if kind.frontend == "gpio")


@dataclass(frozen=True)
class PadsConfig:
    """The slap pads: the front end, the hub's line, the timing uncertainty per pad type
    (decision D28; defaults: the datasheet figures of ``companion.devices.pads.timing``)."""

    frontend: str = "gpio"  # "gpio": a touch module per pad on the Pi; "hub": the RP2040 pad hub;
    # "mpr121": MPR121 touch controllers on the Pi's I2C bus (the no-solder box)
    module: str = "ttp223-fast"  # the GPIO pads' touch modules
    hub_port: str = "/dev/serial0"
    hub_baudrate: int = 115200
    ttp223_fast_ms: float = PAD_TYPES["ttp223-fast"].uncertainty_ms
    ttp223_low_power_ms: float = PAD_TYPES["ttp223-low-power"].uncertainty_ms
    hub_ms: float = PAD_TYPES["padhub"].uncertainty_ms
    mpr121_ms: float = PAD_TYPES["mpr121"].uncertainty_ms
    mpr121_irq: bool = False  # the MPR121s' IRQ line is wired to the pin map's [mpr121] irq
    use_calibration: bool = True  # a calibration in the data folder replaces the declared figure

    @property
    def pad_type(self) -> str:
        return {"hub": "padhub", "mpr121": "mpr121"}.get(self.frontend, self.module)

    def declared_ms(self) -> dict[str, float]:
        """Pad type -> its declared uncertainty (ms)."""
        return {name: float(getattr(self, kind.config_key)) for name, kind in PAD_TYPES.items()}

    @property
    def max_seats(self) -> int:
        """Seats with pads: the Pi's header has GPIOs for 4, the hub serves 6, and so do four
        MPR121 chips (42 pads on 48 electrodes)."""
        return 4 if self.frontend == "gpio" else 6


@dataclass(frozen=True)
class ServiceConfig:
    data_dir: str = "/var/lib/companion"
    pin_factory: str = ""
    buzzer: bool = True
    shutdown_command: str = "systemctl poweroff"


@dataclass(frozen=True)
class VoiceConfig:
    enabled: bool = True
    voice: str = "cs"
    """espeak-ng's voice (``espeak-ng --voices=cs`` lists the Czech ones)."""
    device: str = ""
    """ALSA device for aplay's ``-D`` ("" = ALSA's default)."""
    i2s: bool = False
    """The voice comes out of an I2S amplifier on the Pi's PCM pins (hardware/guide/audio.md): the
    buzzer and the menu button move off them (``[audio_i2s_moves]`` of the pin map)."""


@dataclass(frozen=True)
class WebConfig:
    """The phone view (docs/dev/web.md): a read-only page of the game for the phones at the table."""

    enabled: bool = False  # off until a family turns it on
    address: str = "0.0.0.0"  # the address to listen on ("0.0.0.0": every interface)
    port: int = 8080
    token: str = ""  # the secret in the URL; "" = a new random one at every start
    url_host: str = ""  # the host in the URL and the QR code; "" = the box's LAN address
    max_clients: int = 32  # phones watching at once


WEB_PORTS = (1024, 65535)
"""Ports the service may listen on: it runs without root, so not the privileged ones."""


@dataclass(frozen=True)
class Config:
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    dice: DiceConfig = field(default_factory=DiceConfig)
    game: GameConfig = field(default_factory=GameConfig)
    service: ServiceConfig = field(default_factory=ServiceConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    pins: PinMap = field(default_factory=load_default)
    pads: PadsConfig = field(default_factory=PadsConfig)
    web: WebConfig = field(default_factory=WebConfig)
    games: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each game's own section (``[<name>]``): the values it sets, by game name (a value
    equal to ``[game]``'s of the same key is left out: it is the same either way, and the
    example file with every key equals the defaults)."""

    @property
    def data_path(self) -> Path:
        return Path(self.service.data_dir)

    def button_pins(self) -> dict[str, int]:
        """Button name -> BCM pin of the buttons this configuration reads."""
        return self.pins.button_pins(self.buttons.layout == 5, self.buttons.bonnet)

    def setup_defaults(self, game: GamePlugin) -> dict[str, Any]:
        """The set-up defaults of ``game``: its own section's values over the ``[game]`` keys
        of older files that it reads (its plugin's ``config_keys``; a new game has none)."""
        older = {key: getattr(self.game, key) for key in game.config_keys or ()}
        return {**older, **self.games.get(game.name, {})}

    def shared_defaults(self) -> dict[str, Any]:
        """The set-up defaults ``[game]`` gives every game (older files' keys)."""
        return {key: getattr(self.game, key) for key in SETUP_KEYS}


_SECTIONS: dict[str, type] = {
    "display": DisplayConfig, "buttons": ButtonsConfig, "dice": DiceConfig,
    "game": GameConfig, "service": ServiceConfig, "voice": VoiceConfig, "pads": PadsConfig,
    "web": WebConfig,
}


def _typed(section: str, key: str, value: Any, default: Any) -> Any:
    name = f"{section}.{key}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{name} must be true or false, not {value!r}.")
        return value
    if isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConfigError(f"{name} must be a whole number, not {value!r}.")
        return value
    if isinstance(default, float):
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise ConfigError(f"{name} must be a number, not {value!r}.")
        return float(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise ConfigError(f"{name} must be a text in quotes, not {value!r}.")
        return value
    if isinstance(default, tuple):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{name} must be a list of texts, e.g. [\"b\", \"y\"].")
        return tuple(value)
    raise ConfigError(f"{name} cannot be set.")  # pragma: no cover


def _check(cfg: Config, games: Sequence[GamePlugin] = ()) -> None:
    d, b, g = cfg.display, cfg.buttons, cfg.game
    if d.driver not in DISPLAY_DRIVERS:
        raise ConfigError(
            f"display.driver must be one of {', '.join(DISPLAY_DRIVERS)}, not {d.driver!r}.")
    if not 0 <= d.i2c_address <= 0x7F:
        raise ConfigError(f"display.i2c_address must be a 7-bit I2C address, not {d.i2c_address}.")
    if d.rotate not in (0, 2):
        raise ConfigError(f"display.rotate must be 0 or 2 (the screens are drawn for a panel "
                          f"lying wide; 2 turns it upside down), not {d.rotate}.")
    if not 0 <= d.contrast <= 255:
        raise ConfigError(f"display.contrast must be 0 to 255, not {d.contrast}.")
    if b.layout not in (3, 5):
        raise ConfigError(f"buttons.layout must be 3 or 5, not {b.layout}.")
    if not 0.2 <= b.long_press <= 5:
        raise ConfigError(f"buttons.long_press must be 0.2 to 5 seconds, not {b.long_press}.")
    if not 0 <= b.bounce <= 0.2:
        raise ConfigError(f"buttons.bounce must be 0 to 0.2 seconds, not {b.bounce}.")
    if b.board not in BUTTON_BOARDS:
        raise ConfigError(f"buttons.board must be \"wired\" or \"bonnet\", not {_short(b.board)}.")
    if b.bonnet and b.layout != 5:
        raise ConfigError("buttons.board = \"bonnet\" reads five controls (◀ ● ▶, menu, help): "
                          "set buttons.layout = 5.")
    if b.bonnet and cfg.service.buzzer:
        raise ConfigError("The OLED Bonnet has no buzzer: set service.buzzer = false (the beeps "
                          "come from the speaker).")
    if not 50 <= cfg.dice.baudrate <= 4_000_000:
        raise ConfigError(f"dice.baudrate must be 50 to 4000000, not {cfg.dice.baudrate}.")
    check_dice(cfg.dice)
    for key, port in (("dice.port", cfg.dice.port), ("pads.hub_port", cfg.pads.hub_port)):
        if port and "://" not in port and os.path.isdir(port):
            raise ConfigError(f"{key} {port!r} is a folder, not a serial device.")
    names = [info.name for info in games]
    if names and g.name and g.name not in names:
        raise ConfigError(f"game.name must be one of {', '.join(names)}, not {g.name!r}.")
    pads = cfg.pads
    if pads.frontend not in PAD_FRONTENDS:
        raise ConfigError(f"pads.frontend must be \"gpio\", \"hub\" or \"mpr121\", "
                          f"not {pads.frontend!r}.")
    if pads.module not in GPIO_MODULES:
        raise ConfigError(f"pads.module must be one of {', '.join(GPIO_MODULES)}, "
                          f"not {pads.module!r}.")
    for kind in PAD_TYPES.values():
        ms = getattr(pads, kind.config_key)
        if not 0 <= ms <= 1000:
            raise ConfigError(f"pads.{kind.config_key} must be 0 to 1000 milliseconds, not {ms}.")
    if pads.frontend == "hub" and not pads.hub_port:
        raise ConfigError("pads.hub_port must name the pad hub's serial port.")
    if not 50 <= pads.hub_baudrate <= 4_000_000:
        raise ConfigError(f"pads.hub_baudrate must be 50 to 4000000, not {pads.hub_baudrate}.")
    every = tuple(v for info in games if info.variants is not None for v in info.variants())
    check_setup("game", cfg.shared_defaults(), pads, every)
    for info in games:
        if info.name in cfg.games and info.config_keys is not None:  # another game's keys are
            variants = tuple(info.variants()) if info.variants is not None else ()  # its own
            check_setup(info.name, cfg.games[info.name], pads, variants)
    if not 0 <= g.auto_move_delay <= 10:
        raise ConfigError(
            f"game.auto_move_delay must be 0 to 10 seconds, not {g.auto_move_delay}.")
    if not cfg.voice.voice or any(ch.isspace() for ch in cfg.voice.voice):
        raise ConfigError(f"voice.voice must name an espeak-ng voice such as \"cs\", "
                          f"not {cfg.voice.voice!r}.")
    if any(ch.isspace() for ch in cfg.voice.device):
        raise ConfigError(f"voice.device must be an ALSA device name such as "
                          f"\"plughw:CARD=Device\" (or \"\"), not {cfg.voice.device!r}.")
    if not 0 <= g.computer_confirm_delay <= 60:
        raise ConfigError("game.computer_confirm_delay must be 0 to 60 seconds, "
                          f"not {g.computer_confirm_delay}.")
    if not cfg.service.data_dir:
        raise ConfigError("service.data_dir must name a directory.")
    shutdown_argv(cfg.service.shutdown_command)
    check_web(cfg.web)
    try:
        check_layout(cfg.pins.layout(extra_buttons=b.layout == 5, i2s_audio=cfg.voice.i2s,
                                     bonnet=b.bonnet,
                                     mpr121_irq=pads.frontend == "mpr121" and pads.mpr121_irq))
    except PinMapError as exc:
        raise ConfigError(f"pins: {exc}") from None



def check_setup(section: str, values: dict[str, Any], pads: PadsConfig,
                known_variants: Sequence[str] = ()) -> None:
    """A game's set-up defaults (``[game]``'s older keys or a game's own section), each
    checked with one sentence naming the key (``known_variants``: the house rules the
    game knows, or every game's for ``[game]``)."""
    if "players" in values and values["players"] not in (2, 3, 4):
        raise ConfigError(f"{section}.players must be 2, 3 or 4, not {values['players']}.")
    seats = values.get("seats")
    if seats is not None and not 2 <= seats <= pads.max_seats:
        allowed = "2, 3 or 4" if pads.max_seats == 4 else f"2 to {pads.max_seats}"
        more = " (5 and 6 need the pad hub: pads.frontend = \"hub\")" if pads.max_seats == 4 else ""
        raise ConfigError(f"{section}.seats must be {allowed}{more}, not {seats}.")
    for v in values.get("variants") or ():
        if v not in known_variants:
            known = ", ".join(known_variants) or "none"
            raise ConfigError(f"{section}.variants has an unknown variant {v!r}; known are "
                              f"{known}.")
    for c in values.get("computer") or ():
        if c not in COLOURS:
            raise ConfigError(f"{section}.computer lists {c!r}; use the colour letters r, b, g, y.")
    if "first" in values and values["first"] not in ("red", "lot"):
        raise ConfigError(f"{section}.first must be \"red\" or \"lot\", not {values['first']!r}.")


def check_dice(dice: DiceConfig) -> None:
    """The ``[dice]`` section's kind and Pixels name, each checked with one sentence."""
    if dice.kind not in DICE_KINDS:
        raise ConfigError("dice.kind must be \"serial\" (our dice on a cable), \"ble\" (our dice "
                          "over Bluetooth), \"pixels\" (a Pixels die) or \"none\" (rolls by "
                          f"buttons), not {_short(dice.kind)}.")
    name = dice.pixels_name
    if len(name.encode()) > PIXELS_NAME_BYTES or any(not ch.isprintable() for ch in name):
        raise ConfigError(f"dice.pixels_name must be a die's name of at most "
                          f"{PIXELS_NAME_BYTES} bytes as the Pixels app shows it (or \"\" for "
                          f"the first die heard), not {_short(name)}.")
    ble = dice.ble_name
    if len(ble.encode()) > BLE_NAME_BYTES or any(not ch.isprintable() for ch in ble):
        raise ConfigError(f"dice.ble_name must be our Bluetooth die's name (\"Companion dice "
                          f"3C4D\") or address, at most {BLE_NAME_BYTES} bytes (or \"\" for any), "
                          f"not {_short(ble)}.")


def check_web(web: WebConfig) -> None:
    """The ``[web]`` section's values, each checked with one sentence."""
    import ipaddress

    try:
        ipaddress.ip_address(web.address)
    except ValueError:
        raise ConfigError("web.address must be an IP address of this box such as \"0.0.0.0\" "
                          f"(every interface) or \"127.0.0.1\", not {_short(web.address)}.") from None
    low, high = WEB_PORTS
    if not low <= web.port <= high:
        raise ConfigError(f"web.port must be {low} to {high}, not {_short(web.port)}.")
    if web.token and not (8 <= len(web.token) <= 16 and set(web.token) <= _TOKEN_CHARS):
        raise ConfigError("web.token must be \"\" (a new random one at every start) or 8 to 16 "
                          "letters, digits, '-' or '_'.")
    host = web.url_host
    if host and not (len(host) <= 32 and set(host) <= _HOST_CHARS and host[0].isalnum()
                     and host[-1].isalnum()):
        raise ConfigError("web.url_host must be \"\" or a host name or address of at most 32 "
                          f"letters, digits, '.', '-' or ':', not {_short(host)}.")
    if not 1 <= web.max_clients <= 256:
        raise ConfigError(f"web.max_clients must be 1 to 256, not {_short(web.max_clients)}.")
    shown = host or ("" if web.address in ("0.0.0.0", "::") else web.address)
    if shown:  # the address in the URL is known now: it must fit the display's QR code
        from companion.web import qr

        if ":" in shown:
            shown = f"[{shown}]"
        url = f"http://{shown}:{web.port}/{web.token or qr.new_token()}/"
        if not qr.fits(url):
            most = qr.MAX_ALPHANUMERIC if qr.qr_text(url)[1] == "alphanumeric" else qr.MAX_BYTES
            raise ConfigError(f"The phone view's address {url} is {len(url.encode())} "
                              f"characters, but the display's QR code holds {most}: shorten "
                              "web.url_host or web.token (a token of upper-case letters and "
                              f"digits lets {qr.MAX_ALPHANUMERIC} fit).")


_TOKEN_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
_HOST_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-:")


def _short(value: object) -> str:
    """A value for a sentence: quoted, control characters escaped, cut when very long."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def shutdown_argv(command: str) -> list[str]:
    """The words of ``service.shutdown_command`` ([] when empty); one sentence when unreadable."""
    try:
        return shlex.split(command)
    except ValueError as exc:
        raise ConfigError(f"service.shutdown_command cannot be read ({exc}).") from None


def _apply_pins(base: PinMap, overrides: Any) -> PinMap:
    if not isinstance(overrides, dict):
        raise ConfigError("[pins] must be a table of \"section.name\" = pin.")
    display, buttons = dict(base.display), dict(base.buttons)
    extra, uart = dict(base.buttons_extra), dict(base.dice_uart)
    hub_uart = dict(base.padhub_uart)
    bonnet, mpr = dict(base.bonnet), dict(base.mpr121)
    buzzer = base.buzzer
    tables = {"display": display, "buttons": buttons, "buttons_extra": extra, "dice_uart": uart,
              "padhub_uart": hub_uart, "bonnet": bonnet, "mpr121": mpr}
    for key, pin in overrides.items():
        if not isinstance(pin, int) or isinstance(pin, bool):
            raise ConfigError(f"pins.{key} must be a BCM pin number, not {pin!r}.")
        section, _, name = key.partition(".")
        if key == "buzzer":
            buzzer = pin
        elif section in tables and name in tables[section]:
            tables[section][name] = pin
        else:
            raise ConfigError(f"pins.{key} is not a pin of the pin map.")
    return PinMap(display, buttons, extra, buzzer, uart, base.pads, padhub_uart=hub_uart,
                  buzzer_kind=base.buzzer_kind, parts=dict(base.parts), bonnet=bonnet, mpr121=mpr)


def from_dict(data: dict[str, Any], source: str = "the configuration",
              games: Sequence[GamePlugin] = ()) -> Config:
    """The configuration of a TOML document's values; ``games``: the games whose sections it
    may have (:func:`companion.games.playable`; none: no game section, any ``game.name``)."""
    kwargs: dict[str, Any] = {}
    sections: dict[str, dict[str, Any]] = {}
    keys_of = {info.name: info.config_keys for info in games}
    for section, value in data.items():
        if section == "pins":
            continue
        if section not in _SECTIONS and section in keys_of:
            if not isinstance(value, dict):
                raise ConfigError(f"[{section}] must be a table.")
            sections[section] = _game_section(section, value, source, keys_of[section])
            continue
        if section not in _SECTIONS:
            raise ConfigError(f"Unknown section [{section}] in {source}.")
        if not isinstance(value, dict):
            raise ConfigError(f"[{section}] must be a table.")
        cls = _SECTIONS[section]
        defaults = cls()
        fields: dict[str, Any] = {}
        for key, v in value.items():
            if not hasattr(defaults, key):
                raise ConfigError(f"Unknown key {section}.{key} in {source}.")
            fields[key] = _typed(section, key, v, getattr(defaults, key))
        kwargs[section] = cls(**fields)
    pins = _apply_pins(load_default(), data.get("pins", {}))
    if kwargs.get("voice", VoiceConfig()).i2s:
        pins = pins.moved_for_i2s()
    shared = kwargs.get("game", GameConfig())
    sections = {name: {k: v for k, v in values.items()  # the same either way: kept once
                       if k not in (keys_of[name] or ()) or v != getattr(shared, k)}
                for name, values in sections.items()}
    cfg = Config(pins=pins, games={name: values for name, values in sections.items() if values},
                 **kwargs)
    _check(cfg, games)
    return cfg


def _game_section(game: str, table: dict[str, Any], source: str,
                  keys: tuple[str, ...] | None) -> dict[str, Any]:
    """A game's own section: the keys its plugin names typed as ``[game]``'s of the same
    names; the values of a game that names none as they are."""
    if keys is None:
        return dict(table)
    shared = GameConfig()
    values: dict[str, Any] = {}
    for key, v in table.items():
        if key not in keys:
            raise ConfigError(f"Unknown key {game}.{key} in {source}.")
        values[key] = _typed(game, key, v, getattr(shared, key))
    return values


def load(path: str | Path, games: Sequence[GamePlugin]) -> Config:
    """Read and check a config file (``games``: the games whose sections it may have); any
    problem is one :class:`ConfigError` sentence."""
    p = Path(path)
    try:
        text = read_text_limited(p, CONFIG_LIMIT, "config file")
    except TooBig as exc:
        raise ConfigError(str(exc)) from None
    except FileNotFoundError:
        raise ConfigError(f"The config file {p} does not exist.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"The config file {p} cannot be read ({exc.__class__.__name__}).") from None
    try:
        data = tomllib.loads(text)
        return from_dict(data, str(p), games)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p} is not valid TOML: {exc}.") from None
    except RecursionError:
        raise ConfigError(f"{p} nests its arrays or tables too deeply to be a "
                          "configuration.") from None
