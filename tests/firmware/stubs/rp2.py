"""A stub of MicroPython's ``rp2`` module: a recording PIO assembler and scripted state machines.

``asm_pio`` runs the program function twice with the instruction names as its
globals (as MicroPython's own ``rp2.asm_pio`` does), so labels resolve, and
checks what the hardware would refuse: more than 32 instructions, a delay too
long for the side-set bits, a side-set missing where it is not optional, a
jump to an unknown label.  ``StateMachine`` records its configuration, keeps
what the CPU put and hands out the words a test scripted in ``rx``.
"""

MACHINES = {}


class PIO:
    OUT_LOW = 0
    OUT_HIGH = 1
    IN_LOW = 2
    IN_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2


class Instruction:
    def __init__(self, program, op, args):
        self.program = program
        self.op = op
        self.args = args
        self.side_value = None
        self.delay = 0

    def side(self, value):
        self.side_value = value
        return self

    def __getitem__(self, delay):
        self.delay = delay
        return self


class Program:
    def __init__(self, kwargs):
        self.kwargs = kwargs
        self.instructions = []
        self.labels = {}
        self.wrap_target = 0
        self.wrap = None
        sideset = kwargs.get("sideset_init")
        if sideset is None:
            self.side_bits = 0
        elif isinstance(sideset, tuple):
            self.side_bits = len(sideset)
        else:
            self.side_bits = 1

    def emit(self, op, *args):
        ins = Instruction(self, op, args)
        self.instructions.append(ins)
        return ins

    def check(self):
        assert 0 < len(self.instructions) <= 32, "a PIO program holds at most 32 instructions"
        max_delay = (1 << (5 - self.side_bits)) - 1
        for ins in self.instructions:
            assert 0 <= ins.delay <= max_delay, (ins.op, ins.delay, max_delay)
            if self.side_bits:
                assert ins.side_value is not None, ("side-set missing", ins.op)
                assert 0 <= ins.side_value < (1 << self.side_bits)
            if ins.op == "jmp":
                assert ins.args[-1] in self.labels, ("unknown label", ins.args[-1])


NAMES = {
    "gpio": 0, "pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "isr": 6,
    "osr": 7, "exec": 8, "not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4, "x_not_y": 5,
    "pin": 6, "not_osre": 7, "block": 0x20, "noblock": 0, "iffull": 0x40, "ifempty": 0x40,
    "clear": 0x40,
}


def _emitter(program, name):
    return lambda *args: program.emit(name, *args)


def asm_pio(**kwargs):
    def decorate(function):
        program = Program(kwargs)
        names = dict(NAMES)
        names["invert"] = lambda value: ("invert", value)
        names["reverse"] = lambda value: ("reverse", value)

        def label(name):
            program.labels[name] = len(program.instructions)

        def wrap_target():
            program.wrap_target = len(program.instructions)

        def wrap():
            program.wrap = len(program.instructions) - 1

        names["label"] = label
        names["wrap_target"] = wrap_target
        names["wrap"] = wrap
        for op in ("nop", "jmp", "wait", "in_", "out", "push", "pull", "mov", "irq", "set"):
            names[op] = _emitter(program, op)
        saved = dict(function.__globals__)
        for _pass in range(2):
            function.__globals__.clear()
            function.__globals__.update(names)
            program.instructions = []
            try:
                function()
            finally:
                function.__globals__.clear()
                function.__globals__.update(saved)
        program.check()
        return program

    return decorate


class StateMachine:
    def __init__(self, sm_id, program, freq=-1, **pins):
        assert 0 <= sm_id <= 7 and sm_id not in MACHINES, sm_id
        self.id = sm_id
        self.program = program
        self.freq = freq
        self.pins = pins
        self.tx = []
        self.rx = []
        self.running = False
        MACHINES[sm_id] = self

    def put(self, value):
        self.tx.append(value)

    def get(self):
        assert self.rx, "get() would wait forever: the test scripted no word"
        return self.rx.pop(0)

    def rx_fifo(self):
        return len(self.rx)

    def active(self, value=None):
        if value is None:
            return self.running
        self.running = bool(value)
        return None
